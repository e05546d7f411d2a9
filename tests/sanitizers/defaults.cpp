// Linked into every executable of the sanitized build (IMPACTSET_SANITIZE=ON): the sanitizers
// read these defaults at start-up, before the ASAN_OPTIONS / LSAN_OPTIONS / UBSAN_OPTIONS of the
// environment, which still override them. So `ctest` in the sanitized build, a test run by hand
// and the command line all apply the same suppression file (tests/sanitizers/lsan.supp:
// third-party code only, each entry with its reason).
#ifndef IMPACTSET_SANITIZER_DIR
#error "IMPACTSET_SANITIZER_DIR must name tests/sanitizers"
#endif

extern "C" {
// ASan, LSan and UBSan call these weak hooks; the names are theirs.
// NOLINTBEGIN(bugprone-reserved-identifier)
const char* __asan_default_options() { return "detect_stack_use_after_return=1"; }
const char* __lsan_default_options() {
  return "suppressions=" IMPACTSET_SANITIZER_DIR "/lsan.supp";
}
const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }
// NOLINTEND(bugprone-reserved-identifier)

// Open MPI unloads its components (dlclose) in MPI_Finalize, before LeakSanitizer looks at the
// heap at exit; their leaks then show only "<unknown module>" frames, which no suppression can
// name. Libraries stay loaded in the sanitized programs instead (exported from the executable,
// this definition takes the place of the C library's), so lsan.supp can name Open MPI's modules.
int dlclose(void* /*handle*/) { return 0; }
}
