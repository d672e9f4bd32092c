#ifndef KIOSK_CMOSQUITTO_SHIM_H
#define KIOSK_CMOSQUITTO_SHIM_H
// Eclipse's libmosquitto (Debian libmosquitto-dev), driven from kiosk's own poll loop.
#include <mosquitto.h>
#endif
