#!/usr/bin/env bash
# The action's audit step (action.yml): its inputs come as INPUT_* variables, never as text
# pasted into this script. Findings go to stdout as GitHub annotations (shown on the lines a pull
# request changed), the reports to auditor-report/ and auditor-junit.xml, a summary to the job
# summary; the exit code is an output, so the report is uploaded before the check fails.
set -uo pipefail

read -r -a papers <<<"${INPUT_PAPER:-}"
if [ "${#papers[@]}" -eq 0 ]; then
  echo "::error title=auditor::the action's 'paper' input is empty"
  echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 0
fi
args=(audit "${papers[@]}" --output-format github --out auditor-report
  --junit auditor-junit.xml --fail-on "${INPUT_FAIL_ON}" --criteria "${INPUT_CRITERIA}")
[ -n "${INPUT_PIPELINE:-}" ] && args+=(--pipeline "$INPUT_PIPELINE")
[ -n "${INPUT_MAILTO:-}" ] && args+=(--mailto "$INPUT_MAILTO")
read -r -a snapshots <<<"${INPUT_SNAPSHOT:-}"
for snapshot in "${snapshots[@]}"; do
  args+=(--snapshot "$snapshot")
done

auditor "${args[@]}"
code=$?
{
  echo "exit-code=$code"
  echo "report=auditor-report"
} >>"$GITHUB_OUTPUT"
{
  echo "### auditor"
  case "$code" in
    0) echo "Every reference passed (\`--fail-on ${INPUT_FAIL_ON}\`)." ;;
    1) echo "Some references failed the check: see the annotations and the \`auditor-report\` artifact." ;;
    3) echo "The audit is incomplete: a register could not be consulted (see the report)." ;;
    *) echo "auditor could not check the input (exit $code): see the log." ;;
  esac
} >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
exit 0
