// Package fakeclock is a manual clock for tests of timing rules: time moves
// only when the test calls Advance, and due timers fire, in deadline order,
// on the goroutine that advanced it.
//
// It satisfies agentstate.Clock and owns nothing else.
package fakeclock
