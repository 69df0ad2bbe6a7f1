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
	c.Pos = Pos{n.Line, n.Column}
	type plain Contract
	return n.Decode((*plain)(c))
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

// Selector picks files and a part of each: the language every contract
// kind reads (`mdcontract explain selectors`). File names one file (a
// path, or a glob that matches exactly one); the file set (files,
// exclude, kinds, holding) picks several; at most one part key says
// which part of each file; none is the whole file.
type Selector struct {
	File    string `yaml:"file"`
	FileSet `yaml:",inline"`
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
	// Column is a table column, by its header: each cell below it, in
	// every table of the file (or of the section, region, … also given)
	// whose header row has it.
	Column string `yaml:"column"`
	// List picks each list item (its text after the marker), in the file
	// or in the section, region, … also given.
	List bool `yaml:"list"`
	// JSON is a dot path into a JSON file (a manifest): `keywords`,
	// `plugins.*.name` (`*` is every item of an array or member of an
	// object); it picks the strings there.
	JSON string `yaml:"json"`
	// Frontmatter is a frontmatter key: its value (a string, or each
	// string of a list).
	Frontmatter string `yaml:"frontmatter"`
	// Prefix lets Section and Fence headings match by prefix.
	Prefix bool `yaml:"prefix"`
}

// Part returns the selector's part keys alone (no file, no file set); nil
// when it picks whole files.
func (s *Selector) Part() *Selector {
	p := &Selector{Section: s.Section, Fence: s.Fence, FenceWith: s.FenceWith, Region: s.Region, Paragraph: s.Paragraph,
		Between: s.Between, Column: s.Column, List: s.List, JSON: s.JSON, Frontmatter: s.Frontmatter, Prefix: s.Prefix}
	if p.Section == "" && p.Fence == "" && p.FenceWith == "" && p.Region == "" && p.Paragraph == "" && len(p.Between) == 0 &&
		p.Column == "" && !p.List && p.JSON == "" && p.Frontmatter == "" {
		return nil
	}
	return p
}

// Picked returns the selector's file set, with File as its one glob when
// it names one file.
func (s *Selector) Picked() *FileSet {
	if s.File != "" {
		f := s.FileSet
		f.Files = StringList{s.File}
		return &f
	}
	return &s.FileSet
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
	p.Pos = Pos{n.Line, n.Column}
	type plain Param
	return n.Decode((*plain)(p))
}

// KeyOrder is a contract: the key sequence of a schema block against every instance block.
type KeyOrder struct {
	Schema    Selector  `yaml:"schema"`
	Instances Instances `yaml:"instances"`
}

// Instances are blocks found in files: each part a selector picks (a
// region opened by a marker, the lines between two marker lines, …).
type Instances struct {
	Selector `yaml:",inline"`
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

// AnchorContract is a contract: facts about an anchored region (or
// another part a selector picks).
type AnchorContract struct {
	// Selector picks the files and the part the facts are about: a
	// region (`*` is every region), two marker lines, a section, ….
	Selector `yaml:",inline"`
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
	// Canonical names the side that is the truth, `registry` or `uses`:
	// the other is its copy, and a value one side lacks is blamed on the
	// copy, in both directions ("": no side is, the default).
	Canonical string `yaml:"canonical"`
}

// Extract pulls values out of files: the strings a selector picks
// (table cells, list items, JSON strings, frontmatter values) or, in the
// lines of the part it picks, the matches of a pattern.
type Extract struct {
	Selector `yaml:",inline"`
	// Lines limits matching to lines containing this text.
	Lines   string `yaml:"lines"`
	Pattern string `yaml:"pattern"`
	// In is `code` (fenced blocks only), `text` (outside them) or `any`.
	In string `yaml:"in"`
	// Path reads one value per file picked from its repo path: the
	// pattern's group named value, else its first group, else the match
	// (`^plugins/([^/]+)/` for the folder a plugin lives in).
	Path string `yaml:"path"`
}

// ValuesAgree is a contract: two key→value maps agree wherever both have a key.
type ValuesAgree struct {
	Left  Table `yaml:"left"`
	Right Table `yaml:"right"`
}

// Table extracts a key→value map from a markdown table or list: the
// selector picks the file (`file`, or a file set whose files are each
// compared against the other side) and the part read (a section, a
// region, …; `list: true` reads the list items as `key: value`).
type Table struct {
	Selector `yaml:",inline"`
	// Key and Value are column headers (tables) or, for lists, Pattern
	// groups named key and value.
	Key     string `yaml:"key"`
	Value   string `yaml:"value"`
	Pattern string `yaml:"pattern"`
	// Split splits a value cell into several values (e.g. ",").
	Split string `yaml:"split"`
	// Invert reads the map value→key (a lookup listing keys per value).
	Invert bool `yaml:"invert"`
}

// When is the condition of a `when` contract: the files its selector
// picks in which the part it names exists (a section, a frontmatter key,
// …), narrowed to those whose body matches a pattern.
type When struct {
	Selector `yaml:",inline"`
	// Body is an RE2 pattern searched in the body (outside the
	// frontmatter and, unless InCode, outside code blocks).
	Body   string `yaml:"body"`
	InCode bool   `yaml:"in-code"`
}

// Then is what a file that meets a `when` contract's condition must
// hold: the part its selector names (a section, a frontmatter key, …;
// listing the item Has, when set), or a body that matches a pattern.
type Then struct {
	Selector `yaml:",inline"`
	// Has is an item the key lists: a YAML list item, or a word of a
	// comma- or space-separated string (as Claude Code's `tools` is).
	Has  string `yaml:"has"`
	Body string `yaml:"body"`
	// Forbid is an RE2 pattern no line of the body may match.
	Forbid string `yaml:"forbid"`
	// Path is an RE2 pattern the file's repo path must match.
	Path   string `yaml:"path"`
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
	case c.ValuesAgree != nil:
		add(&c.ValuesAgree.Left.FileSet)
		add(&c.ValuesAgree.Right.FileSet)
	}
	return out
}
