#pragma once
// Where Help ▸ Documentation finds the documents: $KSCOPE_DOCS_DIR when set, the installed copy
// (<prefix>/share/doc/kernelscope, beside the installed program), else the source tree's docs/ that this
// program was built from. Empty when none of them holds the documents.
#include <QString>

namespace ks {

QString documentationFolder();

}  // namespace ks
