package attention

import "github.com/tuios/tuios/internal/alarm"

// SnoozeAlarm keeps one timer for the earliest timed snooze of the
// Inbox (internal/alarm, which the links' follow of linked hosts' items
// uses too).
type SnoozeAlarm = alarm.Alarm
