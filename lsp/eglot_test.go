package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// eglotScript drives Emacs's eglot, in batch: it connects the server to a
// buffer, waits for its diagnostics, prints them, then asks for the
// definition of a `§` reference and prints where it leads. Debian's
// elpa-eglot lives in the system's package folder, which -Q leaves out.
const eglotScript = `
(setq package-directory-list (list "/usr/share/emacs/site-lisp/elpa"))
(package-initialize)
(require 'eglot)
(require 'flymake)
(setq project-find-functions (list (lambda (_dir) (cons 'transient (getenv "MDC_ROOT")))))
(add-to-list 'eglot-server-programs (list 'text-mode (getenv "MDC_BIN") "lsp"))
(find-file (expand-file-name "skills/demo/SKILL.md" (getenv "MDC_ROOT")))
(text-mode)
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) 20)))
  (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
    (accept-process-output nil 0.2)))
(dolist (d (flymake-diagnostics))
  (princ (format "diagnostic %d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d)) (flymake-diagnostic-text d))))
(goto-char (point-min))
(search-forward "§ St")
(dolist (x (xref-backend-definitions 'eglot (xref-backend-identifier-at-point 'eglot)))
  (let ((loc (xref-item-location x)))
    (princ (format "definition %s:%d\n" (file-relative-name (xref-location-group loc) (getenv "MDC_ROOT")) (xref-location-line loc)))))
(kill-emacs 0)
`

// TestEmacsEglot runs the server under a second real client, Emacs with
// eglot (Debian's emacs-nox and elpa-eglot), in batch: the diagnostics
// reach it, and go to definition on a `§` reference leads to the cited
// heading. It skips where Emacs or eglot is missing, except in CI
// (CI=true), where it fails.
func TestEmacsEglot(t *testing.T) {
	emacs := lookPath("emacs")
	if emacs != "" {
		probe := exec.Command(emacs, "-Q", "--batch", "--eval", `(progn (setq package-directory-list (list "/usr/share/emacs/site-lisp/elpa")) (package-initialize) (require 'eglot))`)
		if probe.Run() != nil {
			emacs = "" // Emacs without eglot
		}
	}
	ctx, tmp, bin := editorTest(t, emacs, "Emacs with eglot", "apt-get install emacs-nox elpa-eglot")
	root := writeRepo(t, map[string]string{
		"skills/demo/SKILL.md":  "---\nname: demo\ndescription: Use when testing the server.\n---\n# Demo\n\nSee [x](missing.md) and follow ../other/SKILL.md § Steps.\n",
		"skills/other/SKILL.md": "---\nname: other\ndescription: Other.\n---\n# Other\n\n## Steps\n\nDo it.\n",
	})
	script := filepath.Join(tmp, "eglot.el")
	if err := os.WriteFile(script, []byte(eglotScript), 0o644); err != nil {
		t.Fatal(err)
	}
	runCtx, cancelRun := context.WithTimeout(ctx, 60*time.Second)
	defer cancelRun()
	cmd := exec.CommandContext(runCtx, emacs, "-Q", "--batch", "-l", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "MDC_BIN="+bin, "MDC_ROOT="+root, "HOME="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("emacs: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"diagnostic 7: mdcontract [MC301/link-target]: link target `missing.md` does not exist",
		"definition skills/other/SKILL.md:7",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("eglot output lacks %q:\n%s", want, got)
		}
	}
}
