// jemalloc's options for the released `rmap` (docs/performance.md, "The allocator"), read from
// this global when the allocator starts: freed pages go back to the system 200 ms after they
// were last used, not 10 s (the default), so that the peak a streamed run holds is what it
// uses, not what it used a few seconds before. Debug and sanitizer builds link no jemalloc and
// never read it.
const char *malloc_conf = "dirty_decay_ms:200,muzzy_decay_ms:0";
