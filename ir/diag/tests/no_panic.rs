//! Fuzz-like checks: random inputs through the expected-comment parser, the
//! verifier, the splitter and the renderer must never panic, and basic
//! invariants must hold.

use lf_diag::*;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "expected-",
    "error",
    "warning",
    "note",
    "remark",
    "-re",
    " ",
    "  ",
    "@",
    "+",
    "-",
    "above",
    "below",
    "unknown",
    "{{",
    "}}",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "*",
    ".",
    "\\",
    "0",
    "1",
    "9",
    "42",
    "99999999999999999999",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "//",
    "// -----",
    "// ---",
    "--",
    "é",
    "€",
    "😀",
    "\u{0}",
    "x",
    "op",
    "^",
    "$",
    "|",
    "?",
];

fn random_text(rng: &mut Rng, max_pieces: usize) -> String {
    let n = rng.below(max_pieces + 1);
    (0..n).map(|_| PIECES[rng.below(PIECES.len())]).collect()
}

fn random_diag(rng: &mut Rng, file: &str) -> Diagnostic {
    let sev = [Severity::Error, Severity::Warning, Severity::Note, Severity::Remark][rng.below(4)];
    let pos = match rng.below(5) {
        0 => None,
        1 => Some(SourcePos::new(
            "elsewhere.mlir",
            rng.below(5) as u32,
            rng.below(5) as u32,
        )),
        2 => Some(SourcePos::new(file, u32::MAX - rng.below(2) as u32, u32::MAX)),
        _ => Some(SourcePos::new(file, rng.below(12) as u32, rng.below(40) as u32)),
    };
    let mut d = Diagnostic::new(sev, pos, random_text(rng, 4));
    d.width = [0, 1, 3, 1000, u32::MAX][rng.below(5)];
    if rng.below(3) == 0 {
        let n = random_diag_no_notes(rng, file);
        d.notes.push(n);
    }
    d
}

fn random_diag_no_notes(rng: &mut Rng, file: &str) -> Diagnostic {
    let mut d = random_diag(rng, file);
    d.notes.clear();
    d
}

#[test]
fn random_inputs_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for iter in 0..6000 {
        let text = random_text(&mut rng, 60);
        let file = "f.mlir";

        // Expected comments.
        let exp = parse_expected(file, &text);
        let lines = text.split('\n').count() as u32;
        for e in &exp.diags {
            if let Some(l) = e.line {
                assert!(l >= 1 && l <= lines, "iter {iter}: line {l} of {lines} in {text:?}");
            }
            assert!(e.pos.line >= 1 && e.pos.line <= lines);
        }

        // Verification and rendering.
        let mut sm = SourceMgr::new();
        let id = sm.add(file, text.as_str());
        let emitted: Vec<Diagnostic> = (0..rng.below(4)).map(|_| random_diag(&mut rng, file)).collect();
        let failures = verify_with(std::slice::from_ref(&exp), &emitted, VerifyMode::All);
        let _ = render_all(&failures, &sm);
        let _ = render_all(&emitted, &sm);
        let _ = render_with(
            &emitted,
            &sm,
            &RenderOptions {
                color: true,
                short: false,
            },
        );

        // Offsets.
        for _ in 0..4 {
            let off = rng.below(text.len() + 3);
            let (l, c) = sm.line_col(id, off);
            let back = sm.offset(id, l, c).unwrap();
            assert!(back <= text.len());
            if off <= text.len() {
                assert_eq!(back, off);
            }
        }

        // Splitting: chunks are in order, inside the text, and their
        // positions agree with the SourceMgr.
        let marker = ["// -----", "--", "-", "", "é€"][rng.below(5)];
        let split = split_input_file_checked(&text, marker);
        let mut last_end = 0;
        for ch in &split.chunks {
            assert!(ch.offset >= last_end && ch.offset + ch.text.len() <= text.len());
            assert_eq!(&text[ch.offset..ch.offset + ch.text.len()], ch.text);
            assert_eq!(sm.line_col(id, ch.offset), (ch.line, ch.col));
            last_end = ch.offset + ch.text.len();
        }
        let _ = split.near_miss_warnings(file, &text);
    }
}

#[test]
fn chunk_positions_agree_with_source_mgr() {
    let mut rng = Rng(12345);
    for _ in 0..500 {
        let text = random_text(&mut rng, 80);
        let mut sm = SourceMgr::new();
        let id = sm.add("f", text.as_str());
        for ch in split_input_file(&text, DEFAULT_SPLIT_MARKER) {
            // Every byte of the chunk: chunk-relative (line, col) mapped to
            // the file equals the SourceMgr's view.
            let mut line = 1;
            let mut col = 1;
            for (i, b) in ch.text.bytes().enumerate() {
                assert_eq!(ch.file_pos(line, col), sm.line_col(id, ch.file_offset(i)));
                if b == b'\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
            }
        }
    }
}
