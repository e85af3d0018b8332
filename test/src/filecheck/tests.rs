//! FileCheck behaviour: every directive matching and not matching, with the exact
//! diagnostics FileCheck prints.

use super::*;

fn opts() -> Options {
    Options {
        dump_input: DumpInput::Never,
        ..Options::default()
    }
}

fn run_with(check_text: &str, input: &str, o: &Options) -> Outcome {
    check("t.check", check_text, "<stdin>", input, o)
}

#[track_caller]
fn pass_with(check_text: &str, input: &str, o: &Options) {
    let out = run_with(check_text, input, o);
    assert_eq!(out.status, 0, "expected a match, got:\n{}", out.stderr);
    assert_eq!(out.stderr, "");
}

#[track_caller]
fn pass(check_text: &str, input: &str) {
    pass_with(check_text, input, &opts());
}

#[track_caller]
fn fail_with(check_text: &str, input: &str, o: &Options, status: i32, stderr: &str) {
    let out = run_with(check_text, input, o);
    assert_eq!(out.stderr, stderr, "stderr differs; full stderr:\n{}", out.stderr);
    assert_eq!(out.status, status);
}

#[track_caller]
fn fail(check_text: &str, input: &str, stderr: &str) {
    fail_with(check_text, input, &opts(), 1, stderr);
}

// ---- CHECK ----

#[test]
fn check_matches_in_order() {
    pass("CHECK: one\nCHECK: two\n", "one\nzero\ntwo\n");
    pass("// CHECK: a b\n", "xx a \t  b yy\n");
}

#[test]
fn check_not_found() {
    fail(
        "CHECK: one\nCHECK: two\n",
        "two\none\n",
        "t.check:2:8: error: CHECK: expected string not found in input\n\
         CHECK: two\n\
         \x20      ^\n\
         <stdin>:2:4: note: scanning from here\n\
         one\n\
         \x20  ^\n",
    );
}

#[test]
fn check_reports_possible_intended_match() {
    fail(
        "// CHECK: func @main\n// CHECK: return %arg0\n",
        "func @main\n  %0 = const\n  return %arg1\n",
        "t.check:2:11: error: CHECK: expected string not found in input\n\
         // CHECK: return %arg0\n\
         \x20         ^\n\
         <stdin>:1:11: note: scanning from here\n\
         func @main\n\
         \x20         ^\n\
         <stdin>:3:2: note: possible intended match here\n\
         \x20return %arg1\n\
         \x20^\n",
    );
}

#[test]
fn directives_need_a_word_boundary_and_colon() {
    // `XCHECK:` and `CHECKS:` are not directives; `CHECK` without a colon is text.
    pass("XCHECK: nothing\nCHECKS: nothing\nCHECK: yes\n", "yes\n");
    // The prefix may come anywhere on the line, after `//` or `;` or text.
    pass("foo(); // CHECK: yes\n", "yes\n");
}

#[test]
fn comment_directives_hide_the_rest_of_the_line() {
    pass(
        "// RUN: lf-opt %s | FileCheck %s -check-prefix=CHECK\n// COM: CHECK: missing\nCHECK: here\n",
        "here\n",
    );
}

// ---- CHECK-NEXT ----

#[test]
fn check_next_matches_next_line() {
    pass("CHECK: a\nCHECK-NEXT: b\nCHECK-NEXT: c\n", "a\nb\nc\n");
}

#[test]
fn check_next_on_a_later_line() {
    fail(
        "CHECK: a\nCHECK-NEXT: b\n",
        "a\nx\nb\n",
        "t.check:2:13: error: CHECK-NEXT: is not on the line after the previous match\n\
         CHECK-NEXT: b\n            ^\n\
         <stdin>:3:1: note: 'next' match was here\n\
         b\n^\n\
         <stdin>:1:2: note: previous match ended here\n\
         a\n ^\n\
         <stdin>:2:1: note: non-matching line after previous match is here\n\
         x\n^\n",
    );
}

#[test]
fn check_next_on_the_same_line() {
    fail(
        "CHECK: a\nCHECK-NEXT: b\n",
        "a b\n",
        "t.check:2:13: error: CHECK-NEXT: is on the same line as previous match\n\
         CHECK-NEXT: b\n            ^\n\
         <stdin>:1:3: note: 'next' match was here\n\
         a b\n  ^\n\
         <stdin>:1:2: note: previous match ended here\n\
         a b\n ^\n",
    );
}

#[test]
fn check_next_cannot_come_first() {
    fail_with(
        "CHECK-NEXT: a\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:1: error: found 'CHECK-NEXT' without previous 'CHECK: line\n\
         CHECK-NEXT: a\n^\n",
    );
}

// ---- CHECK-SAME ----

#[test]
fn check_same_matches_on_the_same_line() {
    pass("CHECK: a\nCHECK-SAME: b\nCHECK-SAME: c\n", "a b c\n");
}

#[test]
fn check_same_on_another_line() {
    fail(
        "CHECK: a\nCHECK-SAME: b\n",
        "a\nb\n",
        "t.check:2:13: error: CHECK-SAME: is not on the same line as the previous match\n\
         CHECK-SAME: b\n            ^\n\
         <stdin>:2:1: note: 'next' match was here\n\
         b\n^\n\
         <stdin>:1:2: note: previous match ended here\n\
         a\n ^\n",
    );
}

// ---- CHECK-EMPTY ----

#[test]
fn check_empty_matches_an_empty_line() {
    pass("CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", "a\n\nb\n");
}

#[test]
fn check_empty_with_a_non_empty_next_line() {
    fail(
        "CHECK: a\nCHECK-EMPTY:\n",
        "a\nb\n\nc\n",
        "t.check:2:13: error: CHECK-EMPTY: is not on the line after the previous match\n\
         CHECK-EMPTY:\n            ^\n\
         <stdin>:3:1: note: 'next' match was here\n\
         \n^\n\
         <stdin>:1:2: note: previous match ended here\n\
         a\n ^\n\
         <stdin>:2:1: note: non-matching line after previous match is here\n\
         b\n^\n",
    );
}

#[test]
fn check_empty_must_be_empty() {
    fail_with(
        "CHECK: a\nCHECK-EMPTY: x\n",
        "a\n",
        &opts(),
        2,
        "t.check:2:14: error: found non-empty check string for empty check with prefix 'CHECK:'\n\
         CHECK-EMPTY: x\n             ^\n",
    );
}

// ---- CHECK-NOT ----

#[test]
fn check_not_between_matches() {
    pass(
        "CHECK: first\nCHECK-NOT: bad\nCHECK: last\n",
        "bad\nfirst\nok\nlast\nbad\n",
    );
}

#[test]
fn check_not_found_between_matches() {
    fail(
        "CHECK: first\nCHECK-NOT: bad\nCHECK: last\n",
        "first\nbad\nlast\n",
        "t.check:2:12: error: CHECK-NOT: excluded string found in input\n\
         CHECK-NOT: bad\n           ^\n\
         <stdin>:2:1: note: found here\n\
         bad\n^~~\n",
    );
}

#[test]
fn trailing_check_not_covers_the_rest_of_the_input() {
    fail(
        "CHECK: a\nCHECK-NOT: bad\n",
        "a\nbad\n",
        "t.check:2:12: error: CHECK-NOT: excluded string found in input\n\
         CHECK-NOT: bad\n           ^\n\
         <stdin>:2:1: note: found here\n\
         bad\n^~~\n",
    );
    pass("CHECK-NOT: bad\n", "good\n");
}

#[test]
fn implicit_check_not() {
    let o = Options {
        implicit_check_not: vec!["warning".into()],
        ..opts()
    };
    pass_with("CHECK: a\nCHECK: warning: fine\n", "a\nwarning: fine\n", &o);
    fail_with(
        "CHECK: a\nCHECK: b\n",
        "a\nwarning: x\nb\n",
        &o,
        1,
        "command line:1:22: error: CHECK-NOT: excluded string found in input\n\
         -implicit-check-not='warning'\n                     ^\n\
         <stdin>:2:1: note: found here\n\
         warning: x\n^~~~~~~\n",
    );
}

// ---- CHECK-DAG ----

#[test]
fn check_dag_matches_in_any_order() {
    pass("CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n");
    pass("CHECK: x\nCHECK-DAG: b\nCHECK-DAG: a\n", "x\na\nb\n");
}

#[test]
fn check_dag_matches_do_not_overlap() {
    // Two identical DAG lines need two occurrences.
    pass("CHECK-DAG: a\nCHECK-DAG: a\n", "a\na\n");
    fail(
        "CHECK-DAG: a\nCHECK-DAG: a\n",
        "a\n",
        "t.check:2:12: error: CHECK-DAG: expected string not found in input\n\
         CHECK-DAG: a\n\
         \x20          ^\n\
         <stdin>:1:2: note: scanning from here\n\
         a\n\
         \x20^\n",
    );
}

#[test]
fn check_dag_must_precede_the_next_check() {
    fail(
        "CHECK-DAG: b\nCHECK: c\n",
        "c\nb\n",
        "t.check:2:8: error: CHECK: expected string not found in input\n\
         CHECK: c\n\
         \x20      ^\n\
         <stdin>:2:2: note: scanning from here\n\
         b\n\
         \x20^\n",
    );
}

#[test]
fn check_not_between_dag_groups() {
    let checks = "CHECK-DAG: a\nCHECK-DAG: b\nCHECK-NOT: X\nCHECK-DAG: c\nCHECK-DAG: d\n";
    pass(checks, "b\na\nok\nd\nc\n");
    fail(
        checks,
        "b\na\nX\nd\nc\n",
        "t.check:3:12: error: CHECK-NOT: excluded string found in input\n\
         CHECK-NOT: X\n           ^\n\
         <stdin>:3:1: note: found here\n\
         X\n^\n",
    );
    // A DAG after the NOT cannot match before the previous group.
    fail(
        checks,
        "b\nd\na\nc\n",
        "t.check:5:12: error: CHECK-DAG: expected string not found in input\n\
         CHECK-DAG: d\n\
         \x20          ^\n\
         <stdin>:3:2: note: scanning from here\n\
         a\n\
         \x20^\n",
    );
}

#[test]
fn check_dag_with_variables_is_a_topological_match() {
    pass(
        "CHECK-DAG: add [[R1:r[0-9]+]], r1\nCHECK-DAG: add [[R2:r[0-9]+]], r3\nCHECK: mul [[R1]], [[R2]]\n",
        "add r7, r3\nadd r5, r1\nmul r5, r7\n",
    );
}

// ---- CHECK-LABEL ----

#[test]
fn check_label_splits_the_input_into_blocks() {
    let checks = "CHECK-LABEL: func @a\nCHECK: ret 1\nCHECK-LABEL: func @b\nCHECK: ret 2\n";
    pass(checks, "func @a\nret 1\nfunc @b\nret 2\n");
    // `ret 1` only exists in @b's block: reported in @a's, and checking resumes at @b.
    fail(
        "CHECK-LABEL: func @a\nCHECK: ret 1\nCHECK-LABEL: func @b\nCHECK: ret 3\n",
        "func @a\nret 0\nfunc @b\nret 1\nret 2\n",
        "t.check:2:8: error: CHECK: expected string not found in input\n\
         CHECK: ret 1\n\
         \x20      ^\n\
         <stdin>:1:8: note: scanning from here\n\
         func @a\n\
         \x20      ^\n\
         <stdin>:2:1: note: possible intended match here\n\
         ret 0\n\
         ^\n\
         t.check:4:8: error: CHECK: expected string not found in input\n\
         CHECK: ret 3\n\
         \x20      ^\n\
         <stdin>:3:8: note: scanning from here\n\
         func @b\n\
         \x20      ^\n\
         <stdin>:4:1: note: possible intended match here\n\
         ret 1\n\
         ^\n",
    );
}

#[test]
fn missing_check_label_stops_everything() {
    fail(
        "CHECK-LABEL: func @a\nCHECK: x\nCHECK-LABEL: func @b\n",
        "func @a\nx\n",
        "t.check:3:14: error: CHECK-LABEL: expected string not found in input\n\
         CHECK-LABEL: func @b\n\
         \x20            ^\n\
         <stdin>:1:8: note: scanning from here\n\
         func @a\n\
         \x20      ^\n",
    );
}

#[test]
fn check_label_cannot_use_variables() {
    fail_with(
        "CHECK-LABEL: [[X:.*]]\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:1: error: found 'CHECK-LABEL:' with variable definition or use\n\
         CHECK-LABEL: [[X:.*]]\n^\n",
    );
}

// ---- CHECK-COUNT ----

#[test]
fn check_count_matches_n_times() {
    pass("CHECK-COUNT-3: loop\nCHECK-NOT: loop\n", "loop\nloop loop\nend\n");
}

#[test]
fn check_count_too_few() {
    fail(
        "CHECK-COUNT-3: loop\n",
        "loop\nloop\n",
        "t.check:1:16: error: CHECK-COUNT: expected string not found in input (3 out of 3)\n\
         CHECK-COUNT-3: loop\n\
         \x20              ^\n\
         <stdin>:2:5: note: scanning from here\n\
         loop\n\
         \x20   ^\n",
    );
}

#[test]
fn check_count_needs_a_positive_count() {
    fail_with(
        "CHECK-COUNT-0: x\n",
        "x\n",
        &opts(),
        2,
        "t.check:1:14: error: invalid count in -COUNT specification on prefix 'CHECK'\n\
         CHECK-COUNT-0: x\n\
         \x20            ^\n",
    );
}

// ---- regexes and variables ----

#[test]
fn regex_blocks() {
    pass("CHECK: %{{[0-9]+}} = add\n", "%12 = add\n");
    pass("CHECK: a{{x|z}}b\n", "azb\n");
    fail(
        "CHECK: %{{[0-9]+}} = add\n",
        "%x = add\n",
        "t.check:1:8: error: CHECK: expected string not found in input\n\
         CHECK: %{{[0-9]+}} = add\n       ^\n\
         <stdin>:1:1: note: scanning from here\n\
         %x = add\n^\n",
    );
}

#[test]
fn negated_classes_do_not_cross_lines() {
    pass("CHECK: a{{[^;]*}}b\n", "a..b;\n");
    fail(
        "CHECK: a{{[^;]*}}b\n",
        "a\nb\n",
        "t.check:1:8: error: CHECK: expected string not found in input\n\
         CHECK: a{{[^;]*}}b\n       ^\n\
         <stdin>:1:1: note: scanning from here\n\
         a\n^\n",
    );
}

#[test]
fn bad_regex_is_a_check_file_error() {
    fail_with(
        "CHECK: {{(}}\n",
        "x\n",
        &opts(),
        2,
        "t.check:1:10: error: invalid regex: unclosed group\n\
         CHECK: {{(}}\n         ^\n",
    );
}

#[test]
fn variables_are_defined_and_used() {
    let checks = "CHECK: [[V:%[0-9]+]] = add\nCHECK: use [[V]]\n";
    pass(checks, "%3 = add\nuse %3\n");
    fail(
        checks,
        "%3 = add\nuse %4\n",
        "t.check:2:8: error: CHECK: expected string not found in input\n\
         CHECK: use [[V]]\n\
         \x20      ^\n\
         <stdin>:1:9: note: scanning from here\n\
         %3 = add\n\
         \x20       ^\n\
         <stdin>:1:9: note: with \"V\" equal to \"%3\"\n\
         %3 = add\n\
         \x20       ^\n\
         <stdin>:2:1: note: possible intended match here\n\
         use %4\n\
         ^\n",
    );
}

#[test]
fn variables_on_the_same_line() {
    pass("CHECK: op [[R:r[0-9]+]], [[R]]\n", "op r1, r2\nop r3, r3\n");
    pass("CHECK: [[A:[a-z]+]] [[B:[0-9]+]] [[A]][[B]]\n", "x 1 x1\n");
    fail(
        "CHECK: op [[R:r[0-9]+]], [[R]]\n",
        "op r1, r2\n",
        "t.check:1:8: error: CHECK: expected string not found in input\n\
         CHECK: op [[R:r[0-9]+]], [[R]]\n       ^\n\
         <stdin>:1:1: note: scanning from here\n\
         op r1, r2\n^\n",
    );
}

#[test]
fn undefined_variable() {
    fail(
        "CHECK: use [[NOPE]]\n",
        "use x\n",
        "t.check:1:14: error: undefined variable: NOPE\n\
         CHECK: use [[NOPE]]\n\
         \x20            ^\n",
    );
}

#[test]
fn variables_can_be_redefined_and_scoped() {
    pass("CHECK: [[X:a]]\nCHECK: [[X:b]]\nCHECK: [[X]]\n", "a\nb\nb\n");
    let checks = "CHECK-LABEL: f1\nCHECK: [[X:[0-9]]] [[$G:[0-9]]]\nCHECK-LABEL: f2\nCHECK: [[$G]] [[X]]\n";
    pass(checks, "f1\n1 2\nf2\n2 1\n");
    let scoped = Options {
        enable_var_scope: true,
        ..opts()
    };
    let out = run_with(checks, "f1\n1 2\nf2\n2 1\n", &scoped);
    assert_eq!(out.status, 1);
    assert!(
        out.stderr.starts_with("t.check:4:17: error: undefined variable: X\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn command_line_defines() {
    let o = Options {
        defines: vec![("N".into(), "42".into())],
        ..opts()
    };
    pass_with("CHECK: value [[N]]\n", "value 42\n", &o);
}

#[test]
fn numeric_variables() {
    pass(
        "CHECK: r[[#REG:]] = load\nCHECK: r[[#REG+1]] = load\n",
        "r5 = load\nr6 = load\n",
    );
    pass("CHECK: 0x[[#%x,A:]]\nCHECK-SAME: to 0x[[#A + 7]]\n", "0xa0 to 0xa7\n");
    pass("CHECK: line [[#@LINE]] [[@LINE+1]]\n", "line 1 2\n");
    pass("CHECK: [[#%.3d,N:]]\nCHECK-SAME: [[#N-5]]\n", "003 -002\n");
    pass(
        "CHECK: [[#%X,N:0xFF]]\nCHECK: [[#N+1]] [[#add(N,N)]]\n",
        "0FF\n100 1FE\n",
    );
    let out = run_with(
        "CHECK: r[[#REG:]] = load\nCHECK: r[[#REG+1]] = load\n",
        "r5 = load\nr7 = load\n",
        &opts(),
    );
    assert_eq!(out.status, 1);
    // (FileCheck's "possible intended match" that follows points one column further.)
    assert!(
        out.stderr.starts_with(
            "t.check:2:8: error: CHECK: expected string not found in input\n\
             CHECK: r[[#REG+1]] = load\n\
             \x20      ^\n\
             <stdin>:1:10: note: scanning from here\n\
             r5 = load\n\
             \x20        ^\n\
             <stdin>:1:10: note: with \"REG+1\" equal to \"6\"\n\
             r5 = load\n\
             \x20        ^\n"
        ),
        "{}",
        out.stderr
    );
}

// ---- whitespace, full lines, literal, case ----

#[test]
fn whitespace_is_canonicalized_unless_strict() {
    pass("CHECK: a b\n", "a\t\t b\n");
    let strict = Options {
        strict_whitespace: true,
        ..opts()
    };
    let out = run_with("CHECK: a b\n", "a\t\t b\n", &strict);
    assert_eq!(out.status, 1, "{}", out.stderr);
}

#[test]
fn match_full_lines() {
    let o = Options {
        match_full_lines: true,
        ..opts()
    };
    pass_with("CHECK: a b\n", "  a b  \n", &o);
    let out = run_with("CHECK: a b\n", "xa b\n", &o);
    assert_eq!(out.status, 1, "{}", out.stderr);
    // CHECK-NOT is not affected: it still finds `b` inside a line.
    let out = run_with("CHECK: x\nCHECK-NOT: b\n", "x\nab\n", &o);
    assert_eq!(out.status, 1);
}

#[test]
fn literal_modifier_and_ignore_case() {
    pass("CHECK{LITERAL}: [[1, 2]] {{x}}\n", "v = [[1, 2]] {{x}}\n");
    pass(
        "CHECK-DAG{LITERAL}: [[b]]\nCHECK-DAG{LITERAL}: [[a]]\n",
        "[[a]]\n[[b]]\n",
    );
    pass_with(
        "CHECK: hello {{W}}orld\n",
        "HELLO world\n",
        &Options {
            ignore_case: true,
            ..opts()
        },
    );
}

// ---- prefixes and check-file errors ----

#[test]
fn custom_prefixes() {
    let o = Options {
        check_prefixes: vec!["FOO".into(), "BAR".into()],
        ..opts()
    };
    pass_with("FOO: a\nBAR: b\nCHECK: ignored\n", "a\nb\n", &o);
    fail_with(
        "FOO: a\n",
        "a\n",
        &o,
        2,
        "error: no check strings found with prefix 'BAR:'\n",
    );
    let o = Options {
        allow_unused_prefixes: true,
        ..o
    };
    pass_with("FOO: a\n", "a\n", &o);
}

#[test]
fn no_check_strings() {
    fail_with(
        "nothing here\n",
        "a\n",
        &opts(),
        2,
        "error: no check strings found with prefix 'CHECK:'\n",
    );
    let o = Options {
        check_prefixes: vec!["A".into(), "B".into()],
        ..opts()
    };
    fail_with(
        "x\n",
        "a\n",
        &o,
        2,
        "error: no check strings found with prefixes 'A:', 'B:'\n",
    );
}

#[test]
fn bad_prefixes() {
    let o = Options {
        check_prefixes: vec!["1X".into()],
        ..opts()
    };
    assert_eq!(run_with("CHECK: a\n", "a\n", &o).status, 2);
    let o = Options {
        check_prefixes: vec!["RUN".into()],
        ..opts()
    };
    assert_eq!(run_with("CHECK: a\n", "a\n", &o).status, 2);
}

#[test]
fn empty_pattern_and_bad_combinations() {
    fail_with(
        "CHECK:\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:7: error: found empty check string with prefix 'CHECK:'\nCHECK:\n      ^\n",
    );
    fail_with(
        "CHECK-DAG-NOT: a\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:7: error: unsupported -NOT combo on prefix 'CHECK'\nCHECK-DAG-NOT: a\n      ^\n",
    );
    fail_with(
        "CHECK: [[X\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:8: error: Invalid substitution block, no ]] found\nCHECK: [[X\n       ^\n",
    );
    fail_with(
        "CHECK: {{a\n",
        "a\n",
        &opts(),
        2,
        "t.check:1:8: error: found start of regex string with no end '}}'\nCHECK: {{a\n       ^\n",
    );
}

#[test]
fn empty_input() {
    fail_with("CHECK: a\n", "", &opts(), 2, "FileCheck error: '<stdin>' is empty.\n");
    pass_with(
        "CHECK-NOT: a\n",
        "",
        &Options {
            allow_empty: true,
            ..opts()
        },
    );
}

#[test]
fn input_dump_on_failure() {
    let o = Options {
        dump_input: DumpInput::Fail,
        ..Options::default()
    };
    let out = run_with("CHECK: a\nCHECK: c\n", "a\nb\n", &o);
    assert_eq!(out.status, 1);
    let dump = &out.stderr[out.stderr.find("\nInput file").expect("a dump")..];
    assert_eq!(
        dump,
        "\nInput file: <stdin>\nCheck file: t.check\n\n\
         -dump-input=help explains the following input dump.\n\n\
         Input was:\n<<<<<<\n\
         \x20        1: a \n\
         check:2      X error: no match found\n\
         \x20        2: b \n\
         check:2     ~~\n\
         >>>>>>\n"
    );
}

/// The cases under `test/harness/filecheck`, whose expected output comes from LLVM's
/// FileCheck (see the README there).
#[test]
fn golden_fixtures_match_llvm_filecheck() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/filecheck");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("harness/filecheck exists")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".check").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 20, "fixtures missing: {names:?}");
    let read = |name: &str, ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}")));
    let mut failures = Vec::new();
    for name in &names {
        let check_file = format!("{name}.check");
        let extra = read(name, "args").unwrap_or_default();
        let mut args = vec![check_file.clone()];
        args.extend(extra.split_whitespace().map(str::to_string));
        let mut options = parse_args(&args).expect("valid fixture arguments").options;
        if !extra.contains("--dump-input") {
            options.dump_input = DumpInput::Never;
        }
        let out = check(
            &check_file,
            &read(name, "check").unwrap(),
            "<stdin>",
            &read(name, "input").unwrap(),
            &options,
        );
        let expected = read(name, "expected").unwrap();
        let (status, stderr) = expected.split_once('\n').expect("an exit line");
        let status: i32 = status
            .strip_prefix("exit: ")
            .and_then(|s| s.parse().ok())
            .expect("exit: N");
        if out.status != status || out.stderr != stderr {
            failures.push(format!(
                "{name}: status {} (expected {status})\n--- got\n{}--- expected\n{stderr}",
                out.status, out.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
