//! The corpus recipe: a line-based description of one case (see `tests/corpus-src/README.md`).
//!
//! ```text
//! target sm_90
//! feature dce
//! build nvcc -I$CUDA_INCLUDE -dc -arch=sm_90 a.cu -o a.o
//! input a.o
//! link -arch=sm_90 a.o -o out.cubin
//! ```

/// One parsed recipe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// The link target (`sm_90`), for the scoreboard's per-target column.
    pub target: String,
    /// Feature tags.
    pub features: Vec<String>,
    /// Shell commands, run in order with `sh -c` in the scratch directory.
    pub builds: Vec<String>,
    /// Files from the scratch directory that the link uses.
    pub inputs: Vec<String>,
    /// nvlink's argument list (no program name).
    pub link: Vec<String>,
}

impl Recipe {
    /// Parses a recipe; errors name the offending line.
    pub fn parse(text: &str) -> Result<Recipe, String> {
        let mut target = None;
        let mut features = Vec::new();
        let mut builds = Vec::new();
        let mut inputs = Vec::new();
        let mut link = None;
        for (index, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |msg: &str| format!("recipe line {}: {msg}: {raw:?}", index + 1);
            let (key, rest) = match line.split_once(char::is_whitespace) {
                Some((key, rest)) => (key, rest.trim()),
                None => (line, ""),
            };
            if rest.is_empty() {
                return Err(at("missing value"));
            }
            match key {
                "target" => {
                    if target.replace(rest.to_string()).is_some() {
                        return Err(at("second target line"));
                    }
                }
                "feature" => features.extend(rest.split_whitespace().map(str::to_string)),
                "build" => builds.push(rest.to_string()),
                "input" => {
                    for name in rest.split_whitespace() {
                        if name.starts_with('/') || name.split('/').any(|c| c == "..") {
                            return Err(at("input must be a relative path inside the case"));
                        }
                        inputs.push(name.to_string());
                    }
                }
                "link" => {
                    let args = rest.split_whitespace().map(str::to_string).collect();
                    if link.replace(args).is_some() {
                        return Err(at("second link line"));
                    }
                }
                _ => return Err(at("unknown key")),
            }
        }
        Ok(Recipe {
            target: target.ok_or("recipe has no target line")?,
            features,
            builds,
            inputs,
            link: link.ok_or("recipe has no link line")?,
        })
    }

    /// The file nvlink is told to write (`-o X`, `-oX`, `--output-file X`, `--output-file=X`).
    pub fn output_name(&self) -> Option<&str> {
        let mut args = self.link.iter();
        let mut output = None;
        while let Some(arg) = args.next() {
            if arg == "-o" || arg == "--output-file" || arg == "-output-file" {
                output = args.next().map(String::as_str);
            } else if let Some(v) = arg
                .strip_prefix("--output-file=")
                .or_else(|| arg.strip_prefix("-output-file="))
            {
                output = Some(v);
            } else if let Some(v) = arg.strip_prefix("-o").filter(|v| !v.is_empty()) {
                if !arg.starts_with("-optf") && !arg.starts_with("-options-file") {
                    output = Some(v);
                }
            }
        }
        output
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key() {
        let text = "# comment\n\ntarget sm_90\nfeature weak dce\nfeature fail\n\
                    build nvcc -dc a.cu  -o a.o\ninput a.o b.o\nlink -arch=sm_90  a.o b.o -o out.cubin\n";
        let r = Recipe::parse(text).unwrap();
        assert_eq!(r.target, "sm_90");
        assert_eq!(r.features, ["weak", "dce", "fail"]);
        assert_eq!(r.builds, ["nvcc -dc a.cu  -o a.o"]);
        assert_eq!(r.inputs, ["a.o", "b.o"]);
        assert_eq!(r.link, ["-arch=sm_90", "a.o", "b.o", "-o", "out.cubin"]);
        assert_eq!(r.output_name(), Some("out.cubin"));
    }

    #[test]
    fn rejects_bad_recipes() {
        assert!(Recipe::parse("link a.o\n").is_err(), "no target");
        assert!(Recipe::parse("target sm_90\n").is_err(), "no link");
        assert!(Recipe::parse("target sm_90\ntarget sm_80\nlink a\n").is_err());
        assert!(Recipe::parse("target sm_90\nlink a\nlink b\n").is_err());
        assert!(Recipe::parse("target sm_90\nfrobnicate x\nlink a\n").is_err());
        assert!(Recipe::parse("target sm_90\ninput ../x\nlink a\n").is_err());
    }

    #[test]
    fn output_name_forms() {
        let with = |link: &[&str]| Recipe {
            target: "sm_90".into(),
            features: vec![],
            builds: vec![],
            inputs: vec![],
            link: link.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(
            with(&["--output-file=x.cubin"]).output_name(),
            Some("x.cubin")
        );
        assert_eq!(with(&["-oy.cubin"]).output_name(), Some("y.cubin"));
        assert_eq!(with(&["-optf", "f"]).output_name(), None);
        assert_eq!(with(&["a.o"]).output_name(), None);
    }
}
