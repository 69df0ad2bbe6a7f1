package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/internal/suggest"
)

// CheckTargets says which of ids (as `--target` gives them) is no host.
func CheckTargets(ids []string) error {
	for _, target := range ids {
		id, min := SplitTarget(target)
		if min != "" && !hosts.ValidVersion(min) {
			return fmt.Errorf("target %s: %s is not a release; give the oldest release the repo supports, as %s@2.1.251", id, min, id)
		}
		if hosts.Get(id) == nil {
			msg := fmt.Sprintf("unknown target %s; the hosts are: %s", id, strings.Join(hosts.IDs(), ", "))
			if near, ok := suggest.Closest(id, hosts.IDs()); ok {
				msg = fmt.Sprintf("unknown target %s (did you mean %s?); the hosts are: %s", id, near, strings.Join(hosts.IDs(), ", "))
			}
			return errors.New(msg)
		}
	}
	return nil
}
