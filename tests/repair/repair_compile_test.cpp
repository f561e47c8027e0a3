#include <gtest/gtest.h>
TEST(RepairCompile, Placeholder) {}
