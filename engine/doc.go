// Package engine runs a check: it is what the command line (`check`,
// `graph`, `hosts`) and the language server go through, so that each
// front end reports what the others do.
//
// Open reads a repo's config and settings into a Session; Session.Check
// loads the index (through the model cache, or reports the memo of the
// same check of the same files: memo.go), runs the registered rules, and
// passes the result through an ordered list of steps, each in its own
// file:
//
//  1. suppressions (suppress.go): the findings that
//     `mdcontract-disable-…` comments silence are dropped, and the
//     comments that silence nothing are reported. First, so that a
//     suppressed finding never counts, in any step after.
//  2. linked repeats (linked.go): a finding at a symlink's path that its
//     target, also reported, has at the same place. After the
//     suppressions, so that a comment in the linked file is used.
//  3. sort (sort.go): the rules report from many goroutines; sorted, the
//     report is byte-stable and the steps after it see a fixed order.
//  4. the change (changed.go), with CheckOptions.Changed: of a check of
//     the whole repo, the findings in the changed files, and those the
//     change causes in other files, blamed on it ('caused by the change
//     to PATH'). Before the fixes and the baseline, which see what the
//     change's check reports.
//  5. the fixes, when the front end gives CheckOptions.Fix: they see
//     every finding; when they rewrite files, the repo is checked again.
//  6. the baseline (baseline.go): a finding it records passes. After
//     the fixes (a fixed finding needs no entry), before the cap, so an
//     entry absorbs a real finding, never the cap's summary.
//  7. the cap (cap.go): at most N findings of one rule in one file, and
//     one that counts the rest. Last, so that it counts only what would
//     be shown, and Result.All keeps every finding for the summary and
//     for a baseline written from the check.
//
// Steps 1–3 are Run, which re-checks an index in memory too (the fixes
// settling). A result whose config the repo shows wrong
// (Result.ConfigErrors) skips steps 5 and 6: nothing is written or read
// for a run that is a configuration error.
package engine
