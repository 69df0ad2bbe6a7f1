package config

import "go.yaml.in/yaml/v3"

// Contract is one entry of `contracts:`: an id and exactly one kind.
type Contract struct {
	ID          string `yaml:"id"`
	Description string `yaml:"description"`
	// Severity overrides the kind's rule severity for this contract.
	Severity string `yaml:"severity"`

	Copy              *Copy              `yaml:"copy"`
	KeyOrder          *KeyOrder          `yaml:"key-order"`
	RequiredSection   *RequiredSection   `yaml:"required-section"`
	AnchorContract    *AnchorContract    `yaml:"anchor-contract"`
	DispatchHandshake *DispatchHandshake `yaml:"dispatch-handshake"`
	HeadingIndex      *HeadingIndex      `yaml:"heading-index"`
	ManifestSet       *ManifestSet       `yaml:"manifest-set"`
	Registry          *Registry          `yaml:"registry"`
	ValuesAgree       *ValuesAgree       `yaml:"values-agree"`
	// When and Then are one kind, `when`: files that meet When must meet Then.
	When *When `yaml:"when"`
	Then *Then `yaml:"then"`

	Pos Pos `yaml:"-"`
	// Builtin names the profile that shipped this contract ("" for config).
	Builtin string `yaml:"-"`
}

// UnmarshalYAML records the contract's position.
func (c *Contract) UnmarshalYAML(n *yaml.Node) error {
	type plain Contract
	if err := n.Decode((*plain)(c)); err != nil {
		return err
	}
	c.Pos = Pos{n.Line, n.Column}
	return nil
}

// FileSet picks files: those matching one of Files (globs; empty: every
// file) and none of Exclude, of one of Kinds (when set), that hold one of
// Holding (when set). It is written inline in a contract kind or a side.
type FileSet struct {
	Files   StringList `yaml:"files"`
	Exclude StringList `yaml:"exclude"`
	// Kinds are file kinds: built-in (skill, agent, command, …) or ones
	// declared under `kinds:`.
	Kinds StringList `yaml:"kinds"`
	// Holding keeps the files that hold one of these: a heading, written
	// with its #s (`## Step 0`), as a heading of the file; any other text
	// (a marker comment, a phrase) anywhere in it.
	Holding StringList `yaml:"holding"`
}

// Set reports whether the file set narrows anything beyond its globs.
func (f *FileSet) Set() bool {
	return len(f.Files) > 0 || len(f.Exclude) > 0 || len(f.Kinds) > 0 || len(f.Holding) > 0
}

// Selector picks a part of a file. With only File set it is the whole
// file; otherwise exactly one of the others says which part.
type Selector struct {
	// File is a repo-relative path or glob.
	File string `yaml:"file"`
	// Section is a heading (`## Title`; the #s fix the level): the heading
	// line and everything up to the next heading of the same or a higher
	// level. Headings inside code fences do not count.
	Section string `yaml:"section"`
	// Fence is a heading whose first fenced block's content is selected.
	Fence string `yaml:"fence"`
	// Region is an anchored region's name: the lines between its begin and
	// end markers, wherever they stand (code fences included).
	Region string `yaml:"region"`
	// FenceWith picks fenced blocks whose first content line is this text.
	FenceWith string `yaml:"fence-with"`
	// Paragraph is a prefix: the paragraph whose first line starts with it.
	Paragraph string `yaml:"paragraph"`
	// Between is two marker lines: the lines strictly between them.
	Between []string `yaml:"between"`
	// Prefix lets Section and Fence headings match by prefix.
	Prefix bool `yaml:"prefix"`

	Pos Pos `yaml:"-"`
}

// UnmarshalYAML records the selector's position.
func (s *Selector) UnmarshalYAML(n *yaml.Node) error {
	type plain Selector
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.Pos = Pos{n.Line, n.Column}
	return nil
}

// Copy is a contract: a canonical part and the copies that must match it byte for byte.
type Copy struct {
	Source Selector `yaml:"source"`
	// Copies are globs of files that hold copies; every such file holding
	// the selected part must match. Empty means every file in the repo.
	Copies  StringList `yaml:"copies"`
	Exclude StringList `yaml:"exclude"`
	// Select finds the part in each copy; default: the source's selector
	// without its file.
	Select *Selector `yaml:"select"`
	// Required makes a file matched by Copies that lacks the part a finding.
	Required bool `yaml:"required"`
	// Normalize is applied to both sides: none, eol, trailing-space, trim.
	Normalize []string `yaml:"normalize"`
	// Params are substituted: the source's value of each, where it appears
	// in the canonical text, is replaced by the copy's value.
	Params []Param `yaml:"params"`
}

// Param is a value taken from each file.
type Param struct {
	Name string `yaml:"name"`
	// From is `path` (Pattern on the repo path), `frontmatter` (Key's
	// value) or `content` (Pattern on the file's text). The value is the
	// named group Name, else the first group, else the whole match.
	From    string `yaml:"from"`
	Key     string `yaml:"key"`
	Pattern string `yaml:"pattern"`
	Pos     Pos    `yaml:"-"`
}

// UnmarshalYAML records the position.
func (p *Param) UnmarshalYAML(n *yaml.Node) error {
	type plain Param
	if err := n.Decode((*plain)(p)); err != nil {
		return err
	}
	p.Pos = Pos{n.Line, n.Column}
	return nil
}

// KeyOrder is a contract: the key sequence of a schema block against every instance block.
type KeyOrder struct {
	Schema    Selector  `yaml:"schema"`
	Instances Instances `yaml:"instances"`
}

// Instances are blocks found in files: each region opened by a marker.
type Instances struct {
	FileSet `yaml:",inline"`
	// Region names the marker: `<!-- NAME … -->` opens, `<!-- /… -->` closes.
	Region string `yaml:"region"`
	// Between is two marker lines, as in a Selector.
	Between []string `yaml:"between"`
}

// RequiredSection is a contract: headings that must exist, in order.
type RequiredSection struct {
	FileSet `yaml:",inline"`
	// Headings are written with their #s (`## Gotchas`).
	Headings []string `yaml:"headings"`
	// First: the (first) heading is the first of its level in the file.
	First bool `yaml:"first"`
	// Before: the headings stand before this heading.
	Before string `yaml:"before"`
	// Prefix lets headings match by prefix.
	Prefix bool `yaml:"prefix"`
	// When limits the check to files that contain this text or marker.
	When string `yaml:"when"`
}

// AnchorContract is a contract: facts about an anchored region.
type AnchorContract struct {
	FileSet `yaml:",inline"`
	Region  string `yaml:"region"`
	// Between is two marker lines instead of a region name.
	Between []string `yaml:"between"`
	// Items are the first words of the region's list items, in order.
	Items []string `yaml:"items"`
	// Count is how many times the region must appear (default 1); Min and
	// Max bound it instead.
	Count    *int     `yaml:"count"`
	Min      *int     `yaml:"min"`
	Max      *int     `yaml:"max"`
	NonEmpty bool     `yaml:"non-empty"`
	Contains []string `yaml:"contains"`
	Forbid   []string `yaml:"forbid"`
	Within   *Within  `yaml:"within"`
	// Optional skips files that do not hold the region at all.
	Optional bool `yaml:"optional"`
}

// Within places a region under a heading.
type Within struct {
	Heading string `yaml:"heading"`
	Lines   int    `yaml:"lines"`
}

// DispatchHandshake is a contract: dispatches of tree-claiming agents carry a handshake.
type DispatchHandshake struct {
	FileSet `yaml:",inline"`
	// Targets are the names of the agents whose dispatches must carry the
	// construction; TargetFiles picks them by their files instead (every
	// agent of those files, by its name and its file stem).
	Targets     []string `yaml:"targets"`
	TargetFiles *FileSet `yaml:"target-files"`
	// Evidence are regular expressions; one must match in the dispatching
	// file or in a file it delegates to.
	Evidence []string `yaml:"evidence"`
	// Message, when set, is the finding's text; {target} and {how} stand
	// for the dispatched agent and how it is dispatched.
	Message string `yaml:"message"`
	// Capture checks the shell code blocks that capture handshake fields.
	Capture []CaptureRule `yaml:"capture"`
}

// CaptureRule says how a handshake field must (or must not) be captured in
// a shell code block that mentions it.
type CaptureRule struct {
	Field string `yaml:"field"`
	// Use is a pattern the block must match when it captures Field.
	Use string `yaml:"use"`
	// Forbid is a pattern the block must not match when it captures Field.
	Forbid  string `yaml:"forbid"`
	Message string `yaml:"message"`
}

// HeadingIndex is a contract: a line that enumerates another file's headings.
type HeadingIndex struct {
	Files StringList `yaml:"files"`
	// Line is the text the enumerating line contains.
	Line string `yaml:"line"`
	// Of names the other file; {stem} is the enumerating file's stem,
	// matched case-insensitively. Empty: a path cited on the same line.
	Of      string   `yaml:"of"`
	Level   int      `yaml:"level"`
	Exclude []string `yaml:"exclude"`
}

// ManifestSet is a contract: a JSON array in a manifest equals a set of files.
type ManifestSet struct {
	FileSet  `yaml:",inline"`
	Manifest string `yaml:"manifest"`
	Key      string `yaml:"key"`
}

// Registry is a contract: values used across files are listed in a registry.
type Registry struct {
	Uses   Extract `yaml:"uses"`
	Listed Extract `yaml:"registry"`
	// Unused reports registry entries nothing uses.
	Unused bool `yaml:"unused"`
	// AllowDuplicates switches off the report of a value the registry
	// lists twice (a registry that lists a value per place it applies).
	AllowDuplicates bool `yaml:"allow-duplicates"`
}

// Extract pulls values out of files with a pattern.
type Extract struct {
	FileSet `yaml:",inline"`
	// Lines limits matching to lines containing this text.
	Lines   string `yaml:"lines"`
	Pattern string `yaml:"pattern"`
	// In is `code` (fenced blocks only), `text` (outside them) or `any`.
	In string `yaml:"in"`
	// JSON reads the strings at a dot path of each JSON file (a manifest):
	// `keywords`, `plugins.*.name` (`*` is every item of an array or every
	// member of an object). Frontmatter reads a frontmatter key's value
	// (a string or a list of strings) of each file. With either, Pattern
	// is optional and applies to each string.
	JSON        string `yaml:"json"`
	Frontmatter string `yaml:"frontmatter"`
	// The part of each file read, as a selector's keys say (the whole
	// file when none is set).
	Section   string   `yaml:"section"`
	Fence     string   `yaml:"fence"`
	FenceWith string   `yaml:"fence-with"`
	Region    string   `yaml:"region"`
	Paragraph string   `yaml:"paragraph"`
	Between   []string `yaml:"between"`
	Prefix    bool     `yaml:"prefix"`
}

// Part returns the selector of the part of each file read; nil for the
// whole file.
func (x *Extract) Part() *Selector {
	s := &Selector{Section: x.Section, Fence: x.Fence, FenceWith: x.FenceWith, Region: x.Region, Paragraph: x.Paragraph, Between: x.Between, Prefix: x.Prefix}
	if s.Section == "" && s.Fence == "" && s.FenceWith == "" && s.Region == "" && s.Paragraph == "" && len(s.Between) == 0 {
		return nil
	}
	return s
}

// ValuesAgree is a contract: two key→value maps agree wherever both have a key.
type ValuesAgree struct {
	Left  Table `yaml:"left"`
	Right Table `yaml:"right"`
}

// Table extracts a key→value map from a markdown table or list.
type Table struct {
	File string `yaml:"file"`
	// Files is a glob: each file it matches is read on its own and
	// compared against the other side, which is one file.
	Files   string `yaml:"files"`
	Section string `yaml:"section"`
	// Key and Value are column headers (tables) or, for lists, Pattern
	// groups named key and value.
	Key     string `yaml:"key"`
	Value   string `yaml:"value"`
	Pattern string `yaml:"pattern"`
	// List reads the list items under the section: `- key: value`,
	// `- **key** — value` (instead of Key/Value or Pattern).
	List bool `yaml:"list"`
	// Split splits a value cell into several values (e.g. ",").
	Split string `yaml:"split"`
	// Invert reads the map value→key (a lookup listing keys per value).
	Invert bool `yaml:"invert"`
}

// When is the condition of a `when` contract: the files it applies to,
// narrowed to those whose body matches a pattern and that set a key.
type When struct {
	FileSet `yaml:",inline"`
	// Body is an RE2 pattern searched in the body (outside the
	// frontmatter and, unless InCode, outside code blocks).
	Body string `yaml:"body"`
	// Frontmatter is a key the file must set for the condition to hold.
	Frontmatter string `yaml:"frontmatter"`
	InCode      bool   `yaml:"in-code"`
}

// Then is what a file that meets a `when` contract's condition must hold:
// a frontmatter key (listing the item Has, when set), or a body that
// matches a pattern.
type Then struct {
	Frontmatter string `yaml:"frontmatter"`
	// Has is an item the key lists: a YAML list item, or a word of a
	// comma- or space-separated string (as Claude Code's `tools` is).
	Has    string `yaml:"has"`
	Body   string `yaml:"body"`
	InCode bool   `yaml:"in-code"`
}

// FileSets returns the file sets a contract declares, for checks that
// apply to every one of them (their kinds exist, say).
func (c *Contract) FileSets() []*FileSet {
	var out []*FileSet
	add := func(f *FileSet) {
		if f != nil {
			out = append(out, f)
		}
	}
	switch {
	case c.KeyOrder != nil:
		add(&c.KeyOrder.Instances.FileSet)
	case c.RequiredSection != nil:
		add(&c.RequiredSection.FileSet)
	case c.AnchorContract != nil:
		add(&c.AnchorContract.FileSet)
	case c.DispatchHandshake != nil:
		add(&c.DispatchHandshake.FileSet)
		add(c.DispatchHandshake.TargetFiles)
	case c.ManifestSet != nil:
		add(&c.ManifestSet.FileSet)
	case c.Registry != nil:
		add(&c.Registry.Uses.FileSet)
		add(&c.Registry.Listed.FileSet)
	case c.When != nil:
		add(&c.When.FileSet)
	}
	return out
}
