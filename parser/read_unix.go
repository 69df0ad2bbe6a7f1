//go:build unix

package parser

import "syscall"

// openNonBlock keeps open from waiting on a FIFO.
const openNonBlock = syscall.O_NONBLOCK
