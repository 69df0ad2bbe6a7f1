//go:build !unix

package parser

// openNonBlock is 0 where opening a file cannot block on a FIFO writer.
const openNonBlock = 0
