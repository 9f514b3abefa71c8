//go:build !race

package review

// checkBound is how long one Check may take in FuzzCheck. The slowest
// 64 KiB line takes about 20 ms on a loaded 2-core machine.
const checkBound = 2e9 // 2 s
