// The model's analysis (markdown) in the report and the slides: rendered as the Analysis pane renders it
// (headings, code, emphasis, tables, lists) and safe against what an untrusted text may carry (raw HTML,
// script links, images that would be fetched).
#include "views/report/markdown_html.h"

#include <gtest/gtest.h>

#include "tests/view_logic/synthetic_run.h"
#include "views/report/report_content.h"
#include "views/report/report_html.h"

namespace ks {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(MarkdownHtml, RendersHeadingsCodeEmphasisListsAndTables) {
  const std::string html = markdownHtml(
      "## What changed\n\nThe product uses `torch.mm` and **fuses** the *scale*.\n\n"
      "- one\n- two\n\n```python\nx = a < b\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n~~old~~\n");
  EXPECT_TRUE(has(html, "<h5>What changed</h5>")) << html;  // under the page's h2 and h3: moved down 3
  EXPECT_TRUE(has(html, "<code>torch.mm</code>")) << html;
  EXPECT_TRUE(has(html, "<strong>fuses</strong>")) << html;
  EXPECT_TRUE(has(html, "<em>scale</em>")) << html;
  EXPECT_TRUE(has(html, "<ul><li>one</li><li>two</li></ul>")) << html;
  EXPECT_TRUE(has(html, "<pre><code>x = a &lt; b\n</code></pre>")) << html;
  EXPECT_TRUE(has(html, "<table><tr><th>a</th><th align=\"right\">b</th></tr>")) << html;
  EXPECT_TRUE(has(html, "<s>old</s>")) << html;
  EXPECT_FALSE(has(html, "##")) << html;
  EXPECT_FALSE(has(html, "`")) << html;
  EXPECT_TRUE(
      has(markdownHtml("| a |\n|---|\n| 1 |\n", {.headingShift = 3, .tableAttributes = " border=\"1\""}),
          "<table border=\"1\">"));
}

TEST(MarkdownHtml, UntrustedTextCannotAddMarkupScriptsOrFetches) {
  const std::string html = markdownHtml(
      "<script>alert(1)</script>\n\nInline <img src=x onerror=alert(2)> and <b>bold</b>.\n\n"
      "[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) [rel](../secrets)\n\n"
      "![chart](https://example.com/track.png) [ok](https://example.com/a?b=\"c\") [top](#summary)\n\n"
      "&lt;not a tag&gt; &amp; `<code>` \"quoted\"\n");
  EXPECT_FALSE(has(html, "<script")) << html;
  EXPECT_FALSE(has(html, "<img")) << html;
  EXPECT_FALSE(has(html, "<b>")) << html;
  EXPECT_FALSE(has(html, "javascript:")) << html;
  EXPECT_FALSE(has(html, "href=\"data:")) << html;
  EXPECT_FALSE(has(html, "href=\"../secrets\"")) << html;
  EXPECT_TRUE(has(html, "&lt;script&gt;alert(1)&lt;/script&gt;")) << html;  // shown as the text it is
  EXPECT_TRUE(has(html, "&lt;img src=x onerror=alert(2)&gt;")) << html;
  EXPECT_TRUE(has(html, "click")) << html;  // a link's text stays when its target goes
  EXPECT_TRUE(has(html, "chart")) << html;  // an image's alt text instead of the image
  EXPECT_TRUE(has(html, "<a href=\"https://example.com/a?b=%22c%22\">ok</a>") ||
              has(html, "<a href=\"https://example.com/a?b=&quot;c&quot;\">ok</a>"))
      << html;
  EXPECT_TRUE(has(html, "<a href=\"#summary\">top</a>")) << html;
  EXPECT_TRUE(has(html, "&lt;not a tag&gt; &amp; <code>&lt;code&gt;</code>")) << html;
}

// Items of the report that were shown as markdown source ("## What changed", backticks) are rendered; the
// text stays escaped.
TEST(MarkdownHtml, TheReportRendersTheAnalysisAndKeepsItEscaped) {
  RunFile file = test::syntheticRun()->run();
  file.tasks[1].candidates[0].analysis =
      "## Why it is faster\n\n`clamp_min` fuses the comparison and the "
      "select.\n\n<script>alert(1)</script>\n";
  const LoadedRun run(file);
  const ReportSection section = buildSection(run, nullptr, test::kRowC);
  ASSERT_FALSE(section.analysis.empty());
  ReportContent content;
  content.sections.push_back(section);
  for (const auto flavour : {ReportHtmlOptions::Flavour::Browser, ReportHtmlOptions::Flavour::QtRichText}) {
    ReportHtmlOptions options;
    options.flavour = flavour;
    const std::string html = sectionHtml(content, 0, options);
    EXPECT_TRUE(has(html, "<h5>Why it is faster</h5>")) << html;
    EXPECT_TRUE(has(html, "<code>clamp_min</code> fuses")) << html;
    EXPECT_FALSE(has(html, "## Why")) << html;
    EXPECT_FALSE(has(html, "`clamp_min`")) << html;
    EXPECT_FALSE(has(html, "<script>")) << html;
    EXPECT_TRUE(has(html, "&lt;script&gt;")) << html;
  }
}

}  // namespace
}  // namespace ks
