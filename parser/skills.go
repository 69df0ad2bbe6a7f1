package parser

import (
	"bytes"
	"path"
	"strings"
)

// Skills kept in category folders. kinds.yaml takes a skill by path only
// at skills/<name>/SKILL.md, the layout hosts load; catalogs keep their
// skills a folder deeper (skills/<category>/<name>/SKILL.md,
// skills/.curated/<name>/SKILL.md) and install each one on its own. A
// skill is a folder holding a SKILL.md (the Agent Skills specification,
// https://agentskills.io/specification, read 2026-12-06), so such a
// SKILL.md is a skill too, unless it lies inside another skill's folder,
// where it is that skill's file (a sub-guide the skill points to). Which
// it is depends on the other files, so the index decides it (KindOf).

// Components a manifest lists. A plugin manifest, and a marketplace
// entry, may list skill folders (or folders of skills) under `skills`,
// and agent and command files (or folders of them) under `agents` and
// `commands`, from the plugin root and anywhere in it
// (https://code.claude.com/docs/en/plugins-reference, "Component path
// fields", read 2026-12-06): a repo may keep its skills in
// scientific-skills/<name>/ or its subagents beside their plugin.json, and
// Claude Code loads them as skills and subagents. Their files are of
// that kind whatever their path.

// KindOf returns the kind of the file at repo-relative path rel in this
// repo: KindOf's by its path and the plugin roots; a SKILL.md below a
// skills folder that lies in no other skill's folder is a skill; and a
// file a manifest lists, or that lies in a folder it lists, is of the
// kind listed (a listed skill's other files are its resources).
func (idx *Index) KindOf(rel string) Kind {
	k := kindOf(rel, func(dir string) bool { return idx.rootSet[dir] })
	if k == KindSkillResource && idx.categorySkill(rel) {
		return KindSkill
	}
	if k == KindSkillResource && idx.SkillDirOf(rel) == "" {
		k = KindOther // below skills/ but in no folder holding a SKILL.md
	}
	if (k == KindOther || k == KindSkillResource) && len(idx.listed) > 0 {
		if lk, ok := idx.listedKindOf(rel); ok {
			return lk
		}
	}
	if k == KindAgent && idx.copilotAgents(rel) && !writtenAsSubagent(idx.Doc(rel)) {
		return KindOther
	}
	return k
}

// Copilot's agents at the repo root. Claude Code loads a subagent from
// .claude/agents/ and from a plugin's agents/, every markdown file there,
// a README or a docs/ page included (claude plugin validate, 2.1.337,
// lists them as agents); a repo root is a plugin's when a plugin.json or
// a marketplace makes it one. A repo that is no plugin and keeps its
// agents at agents/ as `*.agent.md` files keeps Copilot's custom agents
// there (the name GitHub Copilot gives an agent file): the folder's
// other files (docs/, specs/, notes) are written for readers, and no
// host loads them as agents. So such a file is other, not a subagent,
// unless it is written as one (frontmatter giving its `name` or
// `description`, even with its `---` lines forgotten: a Claude Code
// subagent kept beside its Copilot twin);
// the `*.agent.md` files stay agent bodies (kinds.yaml).

// copilotAgents reports whether rel, taken by path as a subagent, lies in
// the repo root's agents/ folder of a repo whose root is no plugin and
// whose agents/ holds `*.agent.md` files.
func (idx *Index) copilotAgents(rel string) bool {
	return idx.rootAgentBodies && !idx.rootPlugin && strings.HasPrefix(rel, "agents/") && idx.PluginRootOf(rel) == ""
}

// writtenAsSubagent reports whether d (nil: not known) is written as a
// subagent: its leading block (its frontmatter, closed or not, valid YAML
// or not, or its first lines when the `---` were forgotten) gives a
// `name` or a `description`. The block is read up to its closing `---`
// (without the opening one, up to its first blank line), at most
// maxLeadLines lines.
func writtenAsSubagent(d *Document) bool {
	if d == nil {
		return true
	}
	src := bytes.TrimPrefix(d.Src, []byte("\ufeff"))
	fenced := false
	for i := 0; i < maxLeadLines && len(src) > 0; i++ {
		// a line ends at LF, CRLF or a lone CR
		end := bytes.IndexAny(src, "\r\n")
		if end < 0 {
			end = len(src)
		}
		line, rest := src[:end], src[end:]
		if bytes.HasPrefix(rest, []byte("\r\n")) {
			rest = rest[2:]
		} else if len(rest) > 0 {
			rest = rest[1:]
		}
		src = rest
		switch {
		case i == 0 && string(line) == "---":
			fenced = true
		case string(line) == "---", !fenced && len(bytes.TrimSpace(line)) == 0:
			return false
		case bytes.HasPrefix(line, []byte("name:")), bytes.HasPrefix(line, []byte("description:")):
			return true
		}
	}
	return false
}

// maxLeadLines bounds the lines writtenAsSubagent reads.
const maxLeadLines = 64

// isRootAgentBody reports whether rel is a `*.agent.md` file below the
// repo root's agents/ folder.
func isRootAgentBody(rel string) bool {
	return strings.HasPrefix(rel, "agents/") && strings.HasSuffix(rel, ".agent.md")
}

// ListedKind returns the kind a plugin manifest or marketplace entry
// gives the file at rel by listing it, or a folder holding it, under
// `skills`, `agents` or `commands` (see KindOf); ok is false when none
// lists it.
func (idx *Index) ListedKind(rel string) (k Kind, ok bool) {
	if len(idx.listed) == 0 {
		return 0, false
	}
	return idx.listedKindOf(rel)
}

// listedKindOf returns the kind a manifest gives rel: a listed agent or
// command file, a markdown file below a listed folder of them, or the
// SKILL.md (a skill) or another file (a resource) of a listed skill
// folder or of a skill in a listed folder of skills.
func (idx *Index) listedKindOf(rel string) (Kind, bool) {
	if k, ok := idx.listed[rel]; ok && k != KindSkill && strings.HasSuffix(rel, ".md") {
		return k, true
	}
	k, skill, ok := idx.listedAbove(rel)
	switch {
	case !ok:
		return 0, false
	case k != KindSkill:
		return k, strings.HasSuffix(rel, ".md") && (k == KindCommand || !agentDocName(path.Base(rel)))
	case skill == "":
		return 0, false
	case rel == skill+"/SKILL.md":
		return KindSkill, true
	}
	return KindSkillResource, true
}

// listedSkillDir returns the skill folder a manifest lists that holds
// rel (a listed skill folder, or a skill of a listed folder of skills),
// or "".
func (idx *Index) listedSkillDir(rel string) string {
	if k, skill, ok := idx.listedAbove(rel); ok && k == KindSkill {
		return skill
	}
	return ""
}

// listedAbove finds the nearest folder above rel that a manifest lists:
// the kind it lists, and for skills the skill folder that holds rel
// (listedSkill); ok is false when no listed folder holds rel.
func (idx *Index) listedAbove(rel string) (k Kind, skill string, ok bool) {
	child := ""
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		if k, ok := idx.listed[dir]; ok {
			if k == KindSkill {
				skill = listedSkill(idx, dir, child)
			}
			return k, skill, true
		}
		if dir == "." || dir == "/" {
			return 0, "", false
		}
		child = dir
	}
}

// listedSkill is the skill a listed folder dir gives the files below its
// child folder child ("" for a file of dir itself): dir when it holds a
// SKILL.md, else child when it does (dir lists skills), else "".
func listedSkill(idx *Index, dir, child string) string {
	if idx.Doc(dir+"/SKILL.md") != nil {
		return dir
	}
	if child != "" && idx.Doc(child+"/SKILL.md") != nil {
		return child
	}
	return ""
}

// agentDocName reports whether base names a file that a folder of agents
// holds for its readers (kinds.yaml's agent `except`).
func agentDocName(base string) bool {
	for i := range pathRules {
		if pathRules[i].kind == KindAgent {
			return pathRules[i].excepts(base)
		}
	}
	return false
}

// listedComponents returns the paths the manifests list under `skills`,
// `agents` and `commands`, repo-relative ("." the root), with the kind
// each lists, for listedKindOf. A path that leaves the repo, or is not a
// relative path, is left out (manifest-path reports it).
func (idx *Index) listedComponents() map[string]Kind {
	out := map[string]Kind{}
	fields := []struct {
		name string
		kind Kind
	}{{"skills", KindSkill}, {"agents", KindAgent}, {"commands", KindCommand}}
	add := func(root string, obj *JSONValue) {
		for _, f := range fields {
			v := obj.Get(f.name)
			if v == nil {
				continue
			}
			vals := []*JSONValue{v}
			if v.Kind == JSONArray {
				vals = v.Items
			}
			for _, s := range vals {
				if s == nil || s.Kind != JSONString || s.Str == "" || strings.Contains(s.Str, ":") || path.IsAbs(s.Str) {
					continue
				}
				p := path.Join(root, s.Str)
				if p != ".." && !strings.HasPrefix(p, "../") {
					out[p] = f.kind
				}
			}
		}
	}
	for _, d := range idx.byKind[KindManifest] {
		root := ManifestRoot(d.Path)
		if d.JSON == nil || root == "" {
			continue
		}
		switch path.Base(d.Path) {
		case "plugin.json":
			add(root, d.JSON)
		case "marketplace.json":
			base := root
			if pr := d.JSON.Get("metadata").Get("pluginRoot"); pr != nil && pr.Kind == JSONString {
				base = path.Join(root, pr.Str)
			}
			if ps := d.JSON.Get("plugins"); ps != nil && ps.Kind == JSONArray {
				for _, e := range ps.Items {
					src := LocalSource(e)
					if src == nil || strings.Contains(src.Str, ":") || path.IsAbs(src.Str) {
						continue
					}
					add(path.Join(base, src.Str), e)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// categorySkill reports whether rel, a skill resource by its path (so a
// folder deeper than skills/<name>/), is a SKILL.md that no folder above
// its own, below the skills folder, makes another skill's file.
func (idx *Index) categorySkill(rel string) bool {
	top := skillsFolder(rel)
	return top >= 0 && strings.HasSuffix(rel, "/SKILL.md") && idx.skillFrom(path.Dir(path.Dir(rel)), top) == ""
}

// SkillDirOf returns the folder of the skill that holds rel: the nearest
// folder at or above rel's, below its first skills folder, that holds a
// SKILL.md (a skill is a folder holding a SKILL.md, the Agent Skills
// specification), or the skill folder a manifest lists that holds it; ""
// when no skill does (a docs site's skills/<name>/ pages, a category
// folder's README).
func (idx *Index) SkillDirOf(rel string) string {
	if top := skillsFolder(rel); top >= 0 {
		if dir := idx.skillFrom(path.Dir(rel), top); dir != "" {
			return dir
		}
	}
	if len(idx.listed) > 0 {
		return idx.listedSkillDir(rel)
	}
	return ""
}

// skillFrom returns the nearest of dir and the folders above it, down to
// the one below the skills folder ending at top, that holds a SKILL.md,
// or "".
func (idx *Index) skillFrom(dir string, top int) string {
	for ; len(dir) > top; dir = path.Dir(dir) {
		if idx.Doc(dir+"/SKILL.md") != nil {
			return dir
		}
	}
	return ""
}

// SkillsTop returns the folder below the first folder named skills that
// rel lies below (skills/<name>, with a file or folder below it), or "":
// by the path alone.
func SkillsTop(rel string) string {
	top := skillsFolder(rel)
	if top < 0 {
		return ""
	}
	if i := strings.IndexByte(rel[top+1:], '/'); i >= 0 {
		return rel[:top+1+i]
	}
	return ""
}

// skillsFolder returns the index in rel of the `/` that ends its first
// folder named skills, or -1.
func skillsFolder(rel string) int {
	for at := 0; at < len(rel); {
		i := strings.IndexByte(rel[at:], '/')
		if i < 0 {
			return -1
		}
		if rel[at:at+i] == "skills" {
			return at + i
		}
		at += i + 1
	}
	return -1
}
