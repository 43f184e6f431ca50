//===- IndexRangeTest.cpp - (being written) -------------------------------------===//
#include <gtest/gtest.h>
