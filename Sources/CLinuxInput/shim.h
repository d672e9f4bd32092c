#ifndef KIOSK_CLINUXINPUT_SHIM_H
#define KIOSK_CLINUXINPUT_SHIM_H
// The kernel's evdev event types and codes (EV_*, SYN_*, ABS_*, BTN_*, INPUT_PROP_*).
// They are plain integer macros, which Swift imports as constants.
#include <linux/input-event-codes.h>
// Bus types (BUS_I2C, BUS_SPI) and the evdev structures.
#include <linux/input.h>
#endif
