// The released rmap's allocator options: see malloc_conf.c.
