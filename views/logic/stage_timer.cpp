#include "views/logic/stage_timer.h"

namespace ks {

Q_LOGGING_CATEGORY(lcTiming, "kscope.timing", QtWarningMsg)

}  // namespace ks
