int host_only(int x) { return x + 1; }
