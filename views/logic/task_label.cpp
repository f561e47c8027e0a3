#include "views/logic/task_label.h"

#include <sstream>

namespace ks {
namespace {

std::string shapeText(const GemmShape& g, const char* separator) {
  return std::to_string(g.m) + separator + std::to_string(g.n) + separator + std::to_string(g.k);
}

}  // namespace

std::string taskLabel(const Task& task) {
  if (task.gemm) return shapeText(*task.gemm, "×");
  return task.key();
}

std::string taskTitle(const Task& task) { return taskLabel(task) + " · " + task.name; }

bool nameRepeatsLabel(const Task& task) {
  if (task.name.empty()) return true;
  if (!task.gemm) return false;
  const GemmShape& g = *task.gemm;
  const std::string release = g.precision.empty() ? g.gpu : g.gpu + "_" + g.precision;
  std::istringstream words(task.name);
  for (std::string word; words >> word;)
    if (word != "GEMM" && word != shapeText(g, "x") && word != shapeText(g, "×") &&
        word != "(" + release + ")" && word != release)
      return false;
  return true;
}

}  // namespace ks
