package rules

import (
	"errors"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// Open sets a repo's rules up from its config file (path, from
// config.Find; none when "") and targets (when given, over the config's),
// and says how to load the repo.
func Open(path, root string, targets []string) (*config.Config, *Settings, parser.LoadOptions, error) {
	var cfg *config.Config
	var errs config.Errors // the config's, all reported at once
	if path != "" {
		var err error
		if cfg, err = config.LoadPartial(path, root); err != nil {
			if !errors.As(err, &errs) || cfg == nil {
				return nil, nil, parser.LoadOptions{}, err
			}
		}
	}
	set := cfg
	if len(targets) > 0 {
		if cfg == nil {
			set = &config.Config{Version: 1}
		} else {
			c := *cfg
			set = &c
		}
		set.Targets = targets
	}
	s, err := Setup(set)
	if err != nil {
		var later config.Errors
		if !errors.As(err, &later) {
			return nil, nil, parser.LoadOptions{}, err
		}
		if cfg != nil {
			errs = cfg.JoinErrors(errs, later)
		} else {
			errs = later
		}
	}
	if len(errs) > 0 {
		return nil, nil, parser.LoadOptions{}, errs
	}
	return cfg, s, LoadOptionsFor(cfg, s), nil
}

// LoadOptionsFor are the options a repo is loaded with under cfg (nil:
// none) and s: the kinds s classifies, the config's include and exclude
// globs, file size limit and memory budget.
func LoadOptionsFor(cfg *config.Config, s *Settings) parser.LoadOptions {
	load := parser.LoadOptions{Classify: s.Classify}
	if cfg != nil {
		load.Include, load.Exclude = cfg.Include, cfg.Exclude
		if cfg.MaxFileSize != "" {
			load.MaxFileSize, _ = config.ParseSize(cfg.MaxFileSize)
		}
		if cfg.MaxMemory != "" {
			load.MaxMemory, _ = config.ParseMemory(cfg.MaxMemory)
		}
	}
	return load
}
