package release

import (
	"fmt"
	"strings"
)

// Homepage is the project's page, and Downloads where a tag's release
// files are served (the archives, checksums.txt).
const (
	Homepage  = "https://github.com/mdcontract/mdcontract"
	Downloads = Homepage + "/releases/download"
)

// brewSystems are the systems a Homebrew formula installs on, in the
// order the formula names them: Homebrew runs on macOS and Linux, on
// Apple silicon or ARM (on_arm) and on Intel (on_intel).
var brewSystems = []struct{ block, os string }{{"on_macos", "darwin"}, {"on_linux", "linux"}}
var brewArchs = []struct{ block, arch string }{{"on_arm", "arm64"}, {"on_intel", "amd64"}}

// Formula is the Homebrew formula of version: for each macOS and Linux
// archive that sums (archive name → SHA-256, as checksums.txt lists them)
// holds, its URL and SHA-256; the install puts the binary in bin, and the
// formula's test runs `mdcontract version`. A tap publishes it as
// Formula/mdcontract.rb (.github/workflows/release.yml). It is nil when
// sums holds no macOS or Linux archive.
func Formula(version string, sums map[string]string) []byte {
	var systems strings.Builder
	for _, s := range brewSystems {
		var archs strings.Builder
		for _, a := range brewArchs {
			name := ArchiveName(version, s.os+"_"+a.arch)
			sum, ok := sums[name]
			if !ok {
				continue
			}
			fmt.Fprintf(&archs, "    %s do\n      url %q\n      sha256 %q\n    end\n",
				a.block, Downloads+"/v"+version+"/"+name, sum)
		}
		if archs.Len() > 0 {
			fmt.Fprintf(&systems, "\n  %s do\n%s  end\n", s.block, archs.String())
		}
	}
	if systems.Len() == 0 {
		return nil
	}
	return []byte(`# Homebrew formula of mdcontract ` + version + `, made by scripts/release.sh
# (internal/release/homebrew.go); do not edit. Published in the tap
# mdcontract/homebrew-tap as Formula/mdcontract.rb:
#   brew install mdcontract/tap/mdcontract
class Mdcontract < Formula
  desc "Linter and contract checker for agent plugin markdown"
  homepage "` + Homepage + `"
  version "` + version + `"
` + systems.String() + `
  def install
    bin.install "mdcontract"
  end

  test do
    assert_equal "mdcontract #{version}\n", shell_output("#{bin}/mdcontract version")
  end
end
`)
}
