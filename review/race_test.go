//go:build race

package review

// checkBound is how long one Check may take in FuzzCheck: the race detector
// slows the reader down about tenfold.
const checkBound = 20e9 // 20 s
