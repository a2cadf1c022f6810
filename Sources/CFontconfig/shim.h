// fontconfig's types and constants; the functions are looked up at run time (Text/Fontconfig.swift).
#include <fontconfig/fontconfig.h>
