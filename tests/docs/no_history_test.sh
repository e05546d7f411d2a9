#!/usr/bin/env bash
# The repository documents the product as it is: no work diary in code, docs or scripts. Fails on
# references to sessions or issue numbers, dated history ("before 2026-11-25"), constants kept
# only to compare against an old behaviour, and paths of the machine the project was made on.
# History belongs in the commit messages.
# Usage: no_history_test.sh <source dir>
set -uo pipefail
root="$(realpath "$1")"
cd "$root"
patterns=(
  '\b(this|last|previous|next|earlier|a later) session\b'
  '\bsession [0-9]+'
  '\bissues? #?[0-9]+\b'
  '\b(before|since|until|after|as of) 20[0-9]{2}-[01][0-9]-[0-3][0-9]\b'
  '\b(last )?passed on 20[0-9]{2}-[01][0-9]'
  'kept for the comparison'
  '\bfarm-[a-z]+\b'
  '(^|[^a-z])/work/'
  '\.library/'
)
# Text files under version control (or every file when there is no git checkout), this test and
# binary fixtures aside.
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git -C "$root" ls-files --cached --others --exclude-standard)
else
  mapfile -t files < <(find . -type f -not -path './build*' -not -path './.git/*' | sed 's#^\./##')
fi
args=()
for p in "${patterns[@]}"; do args+=(-e "$p"); done
keep=()
for f in "${files[@]}"; do
  [[ -f $f && $f != tests/docs/no_history_test.sh && $f != build* ]] && keep+=("$f")
done
if hits="$(printf '%s\0' "${keep[@]}" | xargs -0 grep -InEi "${args[@]}" --)"; then
  echo "$hits"
  echo "FAIL: $(echo "$hits" | wc -l) lines of history wording (write what the product is; history goes in git)"
  exit 1
fi
echo "no history wording in ${#keep[@]} files"
