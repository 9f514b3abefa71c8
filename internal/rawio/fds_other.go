//go:build !linux

package rawio

import (
	"errors"
	"sync/atomic"
	"syscall"
)

// FDPassing is false: off Linux the person's keys go over the socket,
// and no descriptor is passed (fds_linux.go).
const FDPassing = false

// PageWords is Linux's.
const PageWords = 4

// SendFDs is unsupported here.
func SendFDs(syscall.Conn, []byte, []int) error { return errors.ErrUnsupported }

// AcceptFDs does nothing here: no Conn is made off Linux.
func (c *Conn) AcceptFDs() {}

// TakeFDs has nothing to hand over here.
func (c *Conn) TakeFDs(int) []int { return nil }

// Page is Linux's; none is made here.
type Page struct{}

// NewPage is unsupported here.
func NewPage() (*Page, error) { return nil, errors.ErrUnsupported }

// MapPage is unsupported here.
func MapPage(int) (*Page, error) { return nil, errors.ErrUnsupported }

func (p *Page) TakeFD() int            { return -1 }
func (p *Page) Word(int) *atomic.Int64 { return new(atomic.Int64) }
func (p *Page) Close()                 {}
