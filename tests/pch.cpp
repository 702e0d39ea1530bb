// The anchor of the tests' precompiled header (tests/CMakeLists.txt): a library needs a source to compile
// the header with.
