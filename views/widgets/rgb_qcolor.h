#pragma once
// The Qt colour of a view model's Rgb (views/logic/shape_map.h): the models stay Qt-free, the widgets paint.
#include <QColor>

#include "views/logic/shape_map.h"

namespace ks {

inline QColor qcolor(const Rgb& c) { return QColor(c.r, c.g, c.b); }

}  // namespace ks
