package parser

import (
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

// Skills a manifest lists. A plugin manifest's `skills`, and a
// marketplace entry's, name skill folders (or folders of skills) from the
// plugin root, anywhere in it (https://code.claude.com/docs/en/plugins-reference,
// "skills", read 2026-12-06): a repo may keep its skills in
// scientific-skills/<name>/, and Claude Code loads them as skills. Their
// files are skills and skill resources whatever their path.

// KindOf returns the kind of the file at repo-relative path rel in this
// repo: KindOf's by its path and the plugin roots; a SKILL.md below a
// skills folder that lies in no other skill's folder is a skill; and the
// files of a skill folder a manifest lists are the skill and its
// resources.
func (idx *Index) KindOf(rel string) Kind {
	k := KindOf(rel, idx.PluginRoots())
	if k == KindSkillResource && idx.categorySkill(rel) {
		return KindSkill
	}
	if (k == KindOther || k == KindSkillResource) && len(idx.skillDirs) > 0 {
		if dir := idx.listedSkillOf(rel); dir != "" {
			if rel == dir+"/SKILL.md" {
				return KindSkill
			}
			return KindSkillResource
		}
	}
	return k
}

// listedSkillOf returns the skill folder a manifest lists that holds rel:
// a listed folder with a SKILL.md, or, for a listed folder of skills, its
// subfolder that has one; "" for none.
func (idx *Index) listedSkillOf(rel string) string {
	child := ""
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		if idx.skillDirs[dir] {
			if idx.Doc(dir+"/SKILL.md") != nil {
				return dir
			}
			if child != "" && idx.Doc(child+"/SKILL.md") != nil {
				return child
			}
			return ""
		}
		if dir == "." || dir == "/" {
			return ""
		}
		child = dir
	}
}

// listedSkillDirs returns the folders the manifests list under `skills`,
// repo-relative ("." the root), for listedSkillOf. A path that leaves
// the repo, or is not a relative path, is left out (manifest-path
// reports it).
func (idx *Index) listedSkillDirs() map[string]bool {
	out := map[string]bool{}
	add := func(root string, v *JSONValue) {
		vals := []*JSONValue{v}
		if v.Kind == JSONArray {
			vals = v.Items
		}
		for _, s := range vals {
			if s == nil || s.Kind != JSONString || s.Str == "" || strings.Contains(s.Str, ":") || path.IsAbs(s.Str) {
				continue
			}
			dir := path.Join(root, s.Str)
			if dir != ".." && !strings.HasPrefix(dir, "../") {
				out[dir] = true
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
			if v := d.JSON.Get("skills"); v != nil {
				add(root, v)
			}
		case "marketplace.json":
			base := root
			if pr := d.JSON.Get("metadata").Get("pluginRoot"); pr != nil && pr.Kind == JSONString {
				base = path.Join(root, pr.Str)
			}
			if ps := d.JSON.Get("plugins"); ps != nil && ps.Kind == JSONArray {
				for _, e := range ps.Items {
					src, v := e.Get("source"), e.Get("skills")
					if v == nil || src == nil || src.Kind != JSONString || strings.Contains(src.Str, ":") || path.IsAbs(src.Str) {
						continue
					}
					add(path.Join(base, src.Str), v)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// categorySkill reports whether rel is a SKILL.md below a skills folder,
// two folders down or more, with no SKILL.md in a folder between.
func (idx *Index) categorySkill(rel string) bool {
	if !strings.HasSuffix(rel, "/SKILL.md") {
		return false
	}
	top := skillsFolder(rel)
	if top < 0 {
		return false
	}
	dir := rel[:len(rel)-len("/SKILL.md")]
	for {
		i := strings.LastIndexByte(dir, '/')
		if i <= top {
			return true
		}
		dir = dir[:i]
		if idx.Doc(dir+"/SKILL.md") != nil {
			return false
		}
	}
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
