// `kscope report` as a person sees it: the HTML rendered by headless Chromium (Debian `chromium`),
// offline, and the PDF rasterised by pdftoppm (poppler-utils); each page must not be blank (pixel statistics
// of the picture) and must hold the expected text (pdftotext). Without those programs the tests fail and say
// what to install (packaging/debian-test-deps.txt).
#include <gtest/gtest.h>

#include <QColor>
#include <QImage>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "ks_test_paths.h"

namespace fs = std::filesystem;

namespace {

const fs::path kSample = fs::path(KS_SOURCE_DIR) / "sample_runs/cached-output-hack.kscope.jsonl";
const fs::path kCudaL1 = fs::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";

std::string quoted(const std::string& s) { return "'" + s + "'"; }

int shell(const std::string& command) {
  const int status = std::system((command + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Fails the test, naming the Debian package, when `program` is not on PATH.
bool have(const std::string& program, const std::string& package) {
  if (shell("command -v " + program) == 0) return true;
  ADD_FAILURE() << program << " is missing: install the Debian package " << package
                << " (packaging/debian-test-deps.txt; packaging/install-deps.sh installs it)";
  return false;
}

class ReportRender : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kscope-report-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    store = dir / "empty-store.sqlite";  // never created: no re-measured numbers from the user's store
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir);
  }

  // Runs kscope report; returns seconds taken.
  double report(const fs::path& input, const std::string& args, const fs::path& out) {
    const auto start = std::chrono::steady_clock::now();
    const std::string command = quoted(KSCOPE_BINARY) + " report " + quoted(input.string()) + " " + args +
                                " --store " + quoted(store.string()) + " --out " + quoted(out.string()) + " 2>" +
                                quoted((dir / "report.err").string());
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command << "\n" << readFile(dir / "report.err");
    EXPECT_TRUE(fs::exists(out)) << out;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Headless Chromium with every host unresolvable: a page that needed the network would show without it.
  std::string chromium(const std::string& what, const fs::path& html) {
    return "chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
           "--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" +
           quoted((dir / "profile").string()) + " " + what + " " + quoted("file://" + html.string());
  }

  std::string pdfText(const fs::path& pdf) {
    const fs::path txt = dir / (pdf.stem().string() + ".txt");
    EXPECT_EQ(shell("pdftotext -layout " + quoted(pdf.string()) + " " + quoted(txt.string())), 0);
    return readFile(txt);
  }

  int pdfPages(const fs::path& pdf) {
    const fs::path info = dir / "info.txt";
    const std::string command = "pdfinfo " + quoted(pdf.string()) + " > " + quoted(info.string()) + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    const std::string text = readFile(info);
    const auto at = text.find("Pages:");
    return at == std::string::npos ? 0 : std::atoi(text.c_str() + at + 6);
  }

  fs::path dir, store;
};

struct Pixels {
  double inked = 0;      // share of pixels clearly darker than the white page
  double coloured = 0;   // share of pixels with a visible hue (charts, highlighted lines)
  int distinct = 0;      // distinct colours, capped
};

Pixels pixels(const fs::path& path) {
  QImage image(QString::fromStdString(path.string()));
  Pixels p;
  if (image.isNull()) return p;
  image = image.convertToFormat(QImage::Format_RGB32);
  std::size_t inked = 0, coloured = 0, total = 0;
  std::vector<bool> seen(1 << 15);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      ++total;
      if (c.lightness() < 200) ++inked;
      if (c.hsvSaturation() > 40 && c.value() > 60) ++coloured;
      const int key = ((c.red() >> 3) << 10) | ((c.green() >> 3) << 5) | (c.blue() >> 3);
      if (!seen[static_cast<std::size_t>(key)]) seen[static_cast<std::size_t>(key)] = true, ++p.distinct;
    }
  p.inked = static_cast<double>(inked) / static_cast<double>(total);
  p.coloured = static_cast<double>(coloured) / static_cast<double>(total);
  return p;
}

// Whitespace runs count as one space (a PDF's lines break where its layout did) and ligatures as their
// letters (pdftotext gives "ﬂagged" where the font joined f and l).
void expectHolds(std::string raw, const std::vector<std::string>& expected, const std::string& where) {
  for (const auto& [ligature, letters] : {std::pair<std::string, std::string>{"\uFB00", "ff"}, {"\uFB01", "fi"},
                                          {"\uFB02", "fl"}, {"\uFB03", "ffi"}, {"\uFB04", "ffl"}})
    for (auto at = raw.find(ligature); at != std::string::npos; at = raw.find(ligature, at))
      raw.replace(at, ligature.size(), letters);
  std::string text;
  for (char c : raw) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
    if (!space) text += c;
    else if (!text.empty() && text.back() != ' ') text += ' ';
  }
  for (const std::string& e : expected) EXPECT_NE(text.find(e), std::string::npos) << where << " lacks \"" << e << "\"";
}

TEST_F(ReportRender, SampleRunHtmlIsSelfContainedAndRendersInChromium) {
  if (!have("chromium", "chromium") || !have("pdftotext", "poppler-utils")) return;
  const fs::path html = dir / "sample.html";
  report(kSample, "--task L1/901", html);
  const std::string page = readFile(html);
  // Nothing fetched: no external stylesheets, scripts, images or fonts.
  for (const char* external : {"<link", "<script", "src=\"http", "url(http", "@import"})
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  EXPECT_NE(page.find("<span style=\"color:#7a3e9d;font-weight:bold\">def</span>"), std::string::npos)
      << "code is syntax-coloured";
  EXPECT_NE(page.find("class=\"l add"), std::string::npos) << "changed lines are highlighted";
  EXPECT_NE(page.find("<s>8.124×</s>"), std::string::npos) << "a caught hack's number is struck through";

  const fs::path shot = dir / "sample.png";
  ASSERT_EQ(shell(chromium("--window-size=1200,1400 --screenshot=" + quoted(shot.string()), html)), 0);
  const Pixels p = pixels(shot);
  EXPECT_GT(p.inked, 0.01) << "the screenshot is blank";
  EXPECT_GT(p.coloured, 0.005) << "no verdict banner, highlighted line or coloured code in sight";
  EXPECT_GT(p.distinct, 20);

  const fs::path printed = dir / "sample-chromium.pdf";
  ASSERT_EQ(shell(chromium("--no-pdf-header-footer --print-to-pdf=" + quoted(printed.string()), html)), 0);
  expectHolds(pdfText(printed),
              {"Reward hacks on a square matmul", "L1/901", "candidate r2", "Caught hack", "cached-output",
               "diff against parent r1", "Numbers", "Flags", "NVIDIA H100"},
              "Chromium's rendering");
}

TEST_F(ReportRender, SampleRunPdfPagesAreNotBlankAndHoldTheText) {
  if (!have("pdftoppm", "poppler-utils") || !have("pdftotext", "poppler-utils")) return;
  const fs::path pdf = dir / "sample.pdf";
  report(kSample, "--task L1/901 --candidate r2", pdf);
  const int pages = pdfPages(pdf);
  ASSERT_GE(pages, 1);
  ASSERT_EQ(shell("pdftoppm -r 40 -png " + quoted(pdf.string()) + " " + quoted((dir / "page").string())), 0);
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".png") continue;
    const Pixels p = pixels(entry.path());
    EXPECT_GT(p.inked, 0.005) << entry.path() << " is blank";
  }
  const std::string text = pdfText(pdf);
  expectHolds(text, {"L1/901", "candidate r2", "Caught hack", "cached-output", "diff against parent r1", "8.124"},
              "the PDF");
  EXPECT_EQ(text.find("candidate r3"), std::string::npos) << "--candidate r2 chose one candidate";
}

// The CUDA-L1 release, whole file: summary, charts and 250 task sections, as HTML and PDF in reasonable time.
TEST_F(ReportRender, CudaL1ReleaseWholeFile) {
  if (!fs::exists(kCudaL1)) GTEST_SKIP() << "no " << kCudaL1;
  if (!have("chromium", "chromium") || !have("pdftoppm", "poppler-utils")) return;
  const fs::path html = dir / "cuda-l1.html";
  const double htmlSeconds = report(kCudaL1, "", html);
  const fs::path pdf = dir / "cuda-l1.pdf";
  const double pdfSeconds = report(kCudaL1, "", pdf);
  std::printf("CUDA-L1 report: HTML %.1f s (%.1f MB), PDF %.1f s (%.1f MB, %d pages)\n", htmlSeconds,
              static_cast<double>(fs::file_size(html)) / 1e6, pdfSeconds,
              static_cast<double>(fs::file_size(pdf)) / 1e6, pdfPages(pdf));
  // Printed for the record (docs/architecture.md has the figures); only a hang fails: on a loaded two-core
  // machine the PDF took 60-190 s of wall time for 15-21 s of CPU.
  EXPECT_LT(htmlSeconds, 300);
  EXPECT_LT(pdfSeconds, 900);

  const std::string page = readFile(html);
  std::size_t sections = 0;
  for (std::size_t at = page.find("<section>"); at != std::string::npos; at = page.find("<section>", at + 1))
    ++sections;
  EXPECT_EQ(sections, 250u);
  EXPECT_NE(page.find("<svg"), std::string::npos) << "charts are inline SVG";
  EXPECT_NE(page.find("href=\"#t-L1-1-"), std::string::npos) << "the task table links to its sections";

  const fs::path shot = dir / "cuda-l1.png";
  ASSERT_EQ(shell(chromium("--window-size=1200,1400 --screenshot=" + quoted(shot.string()), html)), 0);
  const Pixels top = pixels(shot);
  EXPECT_GT(top.inked, 0.01);
  EXPECT_GT(top.coloured, 0.005) << "the charts' bars are not in sight";

  ASSERT_EQ(shell("pdftoppm -r 40 -png -f 1 -l 2 " + quoted(pdf.string()) + " " + quoted((dir / "l1").string())), 0);
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".png" || entry.path().filename().string().rfind("l1", 0) != 0) continue;
    EXPECT_GT(pixels(entry.path()).inked, 0.005) << entry.path() << " is blank";
  }
  // The flagged count is the one rule's (core/flags/flag_counts.h): the report must say what `kscope summary`
  // says, whatever the rules find this year (70 before trust v2's families, 72 after the first five, 73 with
  // slowed-reference).
  const fs::path summary = dir / "summary.txt";
  const std::string command = std::string(KSCOPE_BINARY) + " summary " + quoted(kCudaL1.string()) + " > " +
                              quoted(summary.string()) + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string said = readFile(summary);
  const std::string marker = "227 candidates with a program checked, ";
  const auto at = said.find(marker);
  ASSERT_NE(at, std::string::npos) << said.substr(0, 400);
  const int flagged = std::atoi(said.c_str() + at + marker.size());
  ASSERT_GT(flagged, 0) << said.substr(at, 120);
  expectHolds(pdfText(pdf),
              {"Summary", "Tasks", "L1/1", "L3/",
               std::to_string(flagged) + " of 227 candidates with a program are flagged", "caught hack"},
              "the PDF");
}

}  // namespace
