//go:build !linux

package main

type termState struct{}

func rawMode() termState   { return termState{} }
func (termState) restore() {}
