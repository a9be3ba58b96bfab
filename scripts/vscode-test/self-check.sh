#!/usr/bin/env bash
# Checks that the integration runner fails when it must: on a failing test, on a hanging test
# (it hits TEST_TIMEOUT_S) and when no test runs. Each case must exit non-zero, print the
# expected reason and close on "N passed, N failed" with N failed > 0.
# Build and compile the tests first.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SUITES='extension host|runner self-check' # a quick passing suite, plus the forced cases
status=0

expect_failed_run() {
  local name="$1" reason="$2" output rc closing
  shift 2
  output="$(env "$@" bash "$HERE/run.sh" 2>&1)"
  rc=$?
  closing="$(printf '%s\n' "$output" | tail -n 1)"
  if [ "$rc" -ne 0 ] && [[ "$closing" =~ ^[0-9]+\ passed,\ [1-9][0-9]*\ failed$ ]] && [[ "$output" == *"$reason"* ]]; then
    echo "ok    $name: exit $rc, \"$closing\""
  else
    echo "FAIL  $name: exit $rc, \"$closing\", expected the output to mention \"$reason\""
    printf '%s\n' "$output" | tail -n 20
    status=1
  fi
}

expect_failed_run 'a failing test' 'forced failure' \
  MULTI_EDIT_SELF_CHECK=fail MULTI_EDIT_TEST_GREP="$SUITES"
expect_failed_run 'a hanging test' 'timed out after 20 s (TEST_TIMEOUT_S), while running: runner self-check' \
  MULTI_EDIT_SELF_CHECK=hang MULTI_EDIT_TEST_GREP="$SUITES" TEST_TIMEOUT_S=20
expect_failed_run 'no test at all' 'no integration tests ran' \
  MULTI_EDIT_TEST_GREP=no-test-has-this-title
exit "$status"
