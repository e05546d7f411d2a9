# Sourced by the command-line test scripts: a scratch directory, removed on exit, as the working
# directory; pass and fail counts; the check of one command's exit status and output; the final
# count. Resolve paths relative to the script before sourcing it: it changes directory.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $*"
  fail=$((fail + 1))
}

# expect <name> <expected exit> <pattern> -- command...: runs the command, its output in out.txt
# and err.txt, and passes when it exits with the expected status and its output matches the
# extended regular expression (with a leading "!": does not match it). Returns 1 when it failed.
expect() {
  local name="$1" want="$2" pattern="$3" found=0
  shift 4
  "$@" >out.txt 2>err.txt
  local rc=$?
  if [[ "$pattern" == !* ]]; then
    grep -qE -- "${pattern:1}" err.txt out.txt || found=1
  else
    grep -qE -- "$pattern" err.txt out.txt && found=1
  fi
  if [[ $rc -ne $want || $found -ne 1 ]]; then
    bad "$name: exit $rc (want $want), pattern '$pattern'"
    sed 's/^/  | /' err.txt out.txt | head -8
    return 1
  fi
  ok
}

# finish <label>: prints the counts; the script's status is whether every check passed.
finish() {
  echo "$1: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
}
