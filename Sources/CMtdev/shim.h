#ifndef KIOSK_CMTDEV_SHIM_H
#define KIOSK_CMTDEV_SHIM_H
// libmtdev: turns multitouch protocol A (contacts separated by SYN_MT_REPORT) into protocol B
// (slots and tracking ids). Only the plumbing API, used offline: events are put in and taken out
// by hand, so the same converter serves a live device and a recorded trace.
// Without the legacy API, struct mtdev is an opaque handle: kiosk never reads its fields.
#define MTDEV_NO_LEGACY_API
#include <mtdev-plumbing.h>
#endif
