// Generated rule files the benchmarks share: imports, constants, predicates and rules of every common shape.
import { random } from './measure';

const tools = ['get_inbox', 'send_email', 'read_file', 'run_python', 'search_web', 'sql_query', 'fetch_url', 'write_file'];
const words = ['secret', 'password', 'token', 'ignore previous', 'rm -rf', 'DROP TABLE', 'exfiltrate', 'curl'];

/** A rule file of about `lineCount` lines: imports, constants, predicates and rules of every common shape. */
export function generateRules(lineCount: number, seed = 7): string {
  const next = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const out: string[] = [
    'from invariant import count, forall, llm',
    'from invariant.detectors import pii, secrets, prompt_injection, moderated, python_code, semgrep, CodeIssue',
    'from invariant.parsers.html import links',
    'import json',
    '',
  ];
  let n = 0;
  while (out.length < lineCount) {
    n++;
    switch (n % 6) {
      case 0:
        out.push(`BLOCKED_${n} := ["${pick(words)}", "${pick(words)}", r"\\d{4}-\\d{4}"]`, '');
        break;
      case 1:
        out.push(
          `is_risky_${n}(call: ToolCall) :=`,
          `    call.function.name in ["${pick(tools)}", "${pick(tools)}"]`,
          `    any([w in call.function.arguments.cmd for w in ["${pick(words)}", "${pick(words)}"] if len(w) > 2])`,
          '',
        );
        break;
      case 2:
        out.push(
          `raise PolicyViolation("Data flows from ${pick(tools)} to ${pick(tools)} (${n})", call=call, out=out) if:`,
          '    # a tool output followed by a call',
          '    (out: ToolOutput) -> (call: ToolCall)',
          `    out is tool:${pick(tools)}`,
          `    call is tool:${pick(tools)}({to: ".*@evil\\.com", body: *})`,
          `    any(pii(out.content)) or "${pick(words)}" in out.content`,
          `    not match("^internal-", call.function.arguments["to"])`,
          '',
        );
        break;
      case 3:
        out.push(
          `raise "Suspicious message ${n}" if:`,
          '    (msg: Message)',
          '    msg.role == "assistant" and len(msg.tool_calls) > 2',
          '    (call: ToolCall) in msg.tool_calls',
          `    is_risky_${n - 2}(call)`,
          '    count(min=2, max=5):',
          '        (other: ToolCall)',
          `        other.function.name == call.function.name`,
          '',
        );
        break;
      case 4:
        out.push(
          `raise "Unsafe code ${n}" if:`,
          '    (call: ToolCall)',
          '    call is tool:run_python',
          '    res := python_code(call.function.arguments.code)',
          '    "os" in res.imports or res.syntax_error',
          '    (issue: CodeIssue) in semgrep(call.function.arguments.code, lang="python")',
          '    issue.severity in ["warning", "error"]',
          `    prompt_injection(call.function.arguments.code, threshold=0.${n % 9 + 1})`,
          '',
        );
        break;
      case 5:
        out.push(
          `raise "Link in output ${n}" if:`,
          '    (output: ToolOutput)',
          '    (link: str) in links(output)',
          `    not match("https://trusted.com/.+", link) if input.strict else "${pick(words)}" in link`,
          '',
        );
        break;
    }
  }
  return out.join('\n') + '\n';
}
