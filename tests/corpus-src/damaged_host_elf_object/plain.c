int host_only_function(int x) { return x + 1; }
