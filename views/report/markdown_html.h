#pragma once
// Markdown from a file (the model's analysis, a task's description) as HTML for pages that leave the window:
// the report and presentation mode's slides. Parsed by md4c with the dialect and options the Analysis pane
// gives Qt's markdown reader (which is md4c too): GitHub's tables, strikethrough, task lists and autolinks,
// raw HTML read as text. The text is untrusted, so what comes out is safe to put in a page:
//   - every character of text is escaped; raw HTML in the markdown shows as the text it is,
//   - a link is kept only for http:, https: and mailto: targets and in-page anchors (#...); any other
//     (javascript:, data:, a relative path) is left as its text,
//   - an image is never fetched: its alt text is shown instead, so a page stays self-contained.
// Headings are moved down by `headingShift` levels (at most h6), so that an analysis's "## What changed"
// sits under the page's own section headings.
#include <string>
#include <string_view>

namespace ks {

struct MarkdownHtmlOptions {
  int headingShift = 3;
  // Put on every <table> (Qt's rich text draws cell borders from the table's attributes, not CSS).
  std::string tableAttributes;
};

std::string markdownHtml(std::string_view markdown, const MarkdownHtmlOptions& options = {});

}  // namespace ks
