// libavif's types and constants; the functions are looked up at run time (Codecs/AVIFLibrary.swift):
// Debian ships no static libavif, and its encoder (libaom) would add megabytes to every start.
#include <avif/avif.h>
