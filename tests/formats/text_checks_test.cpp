#include <gtest/gtest.h>

#include "core/formats/task_name.h"
#include "core/formats/utf8.h"

namespace ks {
namespace {

TEST(FindNonText, AcceptsUtf8AndFindsTheFirstBadByte) {
  EXPECT_FALSE(findNonText("plain ascii\n\t"));
  EXPECT_FALSE(findNonText("\xCE\xBC \xE2\x82\xAC \xF0\x9F\x9A\x80"));  // mu, euro, rocket
  EXPECT_EQ(findNonText(std::string("ab\0c", 4))->offset, 2u);
  EXPECT_EQ(findNonText("ab\xC0\xAF")->offset, 2u);        // overlong '/'
  EXPECT_EQ(findNonText("a\xED\xA0\x80")->offset, 1u);     // surrogate
  EXPECT_EQ(findNonText("\xF4\x90\x80\x80")->offset, 0u);  // above U+10FFFF
  EXPECT_EQ(findNonText("ok\xE2\x82")->offset, 2u);        // cut short
  EXPECT_FALSE(findNonText("ok\xE2\x82", /*allowCutEnd=*/true));
  EXPECT_EQ(findNonText("x\xff")->what, "an invalid UTF-8 byte 0xff");
}

TEST(TaskName, FromTheModelDocstring) {
  EXPECT_EQ(taskNameFromReference("import torch\n\nclass Model(nn.Module):\n    \"\"\"\n"
                                  "    Simple model that performs a Swish activation.\n    \"\"\"\n"),
            "Swish activation");
  EXPECT_EQ(
      taskNameFromReference("class Model(nn.Module):\n    def __init__(self,\n                 n):\n"
                            "        \"\"\"\n        :param n: size\n        Initialize the VGG16 model.\n"
                            "        \"\"\"\n"),
      "VGG16 model");
  EXPECT_EQ(taskNameFromReference(
                "class Model(nn.Module):\n    \"\"\"\n    A model that performs a sequence of operations:\n"
                "        - ConvTranspose3d\n        - Max\n    \"\"\"\n"),
            "Sequence of operations: ConvTranspose3d, Max");
}

TEST(TaskName, FallsBackToCommentsHelpersAndLayers) {
  EXPECT_EQ(
      taskNameFromReference("# Copyright 2018 X\n# Licensed under MIT\nimport torch\n# U-Net Implementation\n"
                            "class Model(nn.Module):\n    pass\n"),
      "U-Net Implementation");
  EXPECT_EQ(taskNameFromReference("class Fire(nn.Module):\n    pass\nclass Model(nn.Module):\n    pass\n"),
            "Model built from Fire");
  EXPECT_EQ(taskNameFromReference(
                "class Model(nn.Module):\n    def __init__(self):\n"
                "        self.net = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1))\n"),
            "nn.Linear, nn.ReLU");
  EXPECT_EQ(taskNameFromReference(""), "");
}

// Found by fuzz_load_any (2026-11-29): a comment line of '#' alone threw out_of_range, and the reader's
// parallel loop turned that into "internal error" for the whole file.
TEST(TaskName, ACommentLineOfHashesAloneIsSkipped) {
  EXPECT_EQ(taskNameFromReference("import torch\n##########\n#\n# Fused softmax\nclass Model(nn.Module):\n"),
            "Fused softmax");
  EXPECT_EQ(taskNameFromReference("##########\nclass Model(nn.Module):\n    pass\n"), "");
  EXPECT_EQ(taskNameFromReference("import torch\n#################\n"), "");
}

TEST(TaskName, LongNamesAreCutAtAWord) {
  const std::string name =
      taskNameFromReference("class Model(nn.Module):\n    \"\"\"Performs " + std::string(30, 'a') + " " +
                            std::string(30, 'b') + " " + std::string(30, 'c') + ".\"\"\"\n");
  EXPECT_EQ(name, std::string(1, 'A') + std::string(29, 'a') + " " + std::string(30, 'b') + "...");
  EXPECT_LE(name.size(), kMaxTaskNameChars);
}

}  // namespace
}  // namespace ks
