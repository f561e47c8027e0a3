// What a new user meets first: File ▸ Open Folder through its real dialog, every menu action once, the first
// window's size on the screen it opens on, a filter that hides the task on show, the Help menu, and the
// progress of a compile.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <functional>
#include <memory>

#include "app/kernelscope/compile_command.h"
#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "core/nvcc/nvcc_locator.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/widgets/docs_browser.h"
#include "views/widgets/presentation_view.h"
#include "views/widgets/shortcuts_dialog.h"
#include "views/widgets/task_table.h"
#include "tests/views/joined_samples.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kDiagSample;


bool openAndWait(MainWindow& window, const QString& path) {
  QSignalSpy shown(&window, &MainWindow::runShown);
  QSignalSpy failed(window.loader(), &RunLoader::failed);
  window.openPath(path);
  for (int waited = 0; waited < 60000 && shown.isEmpty() && failed.isEmpty(); waited += 20) QTest::qWait(20);
  return !shown.isEmpty();
}

// Every action of the menus, submenus included, in menu order.
void collectActions(const QMenu* menu, QList<QAction*>& out) {
  for (QAction* action : menu->actions()) {
    if (action->isSeparator()) continue;
    if (QMenu* sub = action->menu()) {
      collectActions(sub, out);
      continue;
    }
    out << action;
  }
}

QList<QAction*> menuActions(const MainWindow& window) {
  QList<QAction*> out;
  for (QAction* top : window.menuBar()->actions())
    if (const QMenu* menu = top->menu()) collectActions(menu, out);
  return out;
}

// Closes whatever an action opened on top of `window` (modal dialogs end their exec(), full-screen views
// leave), every `ms` while it lives; counts what it closed.
class Closer : public QObject {
 public:
  Closer(QWidget* window, int ms) : m_window(window) {
    connect(&m_timer, &QTimer::timeout, this, [this] { closeAll(); });
    m_timer.start(ms);
  }
  int closed() const { return m_closed; }
  void closeAll() {
    for (QWidget* top : QApplication::topLevelWidgets()) {
      if (top == m_window || !top->isVisible()) continue;
      if (auto* dialog = qobject_cast<QDialog*>(top)) {
        dialog->reject();
        ++m_closed;
      } else if (auto* menu = qobject_cast<QMenu*>(top)) {
        menu->close();
      } else if (auto* slides = qobject_cast<PresentationView*>(top)) {
        slides->leave();
        ++m_closed;
      }
    }
  }

 private:
  QWidget* m_window;
  QTimer m_timer;
  int m_closed = 0;
};

class FirstUseTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  void TearDown() override { QSettings().clear(); }
};

// File ▸ Open Folder through its real dialog: accepted while exec() runs, then read; the dialog was
// deleted on close before, so reading it after exec() was a use after free (a crash in 2 of 3 tries).
TEST_F(FirstUseTest, OpenFolderThroughItsDialogOpensTheChosenFolderAndTheWindowLivesOn) {
  QTemporaryDir dir;
  ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("kb/level1")));
  QFile task(dir.filePath(QStringLiteral("kb/level1/1_Square_matrix_multiplication_.py")));
  ASSERT_TRUE(task.open(QIODevice::WriteOnly));
  task.write("import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n"
             "    def forward(self, A, B):\n        return torch.matmul(A, B)\n\n"
             "N = 64\n\ndef get_inputs():\n    return [torch.randn(N, N), torch.randn(N, N)]\n\n"
             "def get_init_inputs():\n    return []\n");
  task.close();
  const QString folder = QDir(dir.filePath(QStringLiteral("kb"))).canonicalPath();

  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QAction* openFolder = nullptr;
  for (QAction* action : menuActions(window))
    if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)) openFolder = action;
  ASSERT_NE(openFolder, nullptr);

  bool accepted = false;
  std::function<void()> accept = [&] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) {
      QTimer::singleShot(20, accept);
      return;
    }
    dialog->setDirectory(folder);
    dialog->selectFile(folder);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog's own accept() is protected
    accepted = true;
  };
  QTimer::singleShot(0, accept);
  QSignalSpy shown(&window, &MainWindow::runShown);
  openFolder->trigger();  // returns once the dialog's exec() has returned and it was read
  ASSERT_TRUE(accepted);
  ASSERT_TRUE(shown.wait(30000));
  EXPECT_EQ(QDir(window.currentPath()).canonicalPath(), folder);
  EXPECT_EQ(window.run()->rowCount(), 1);
  // The next Open dialog starts there.
  EXPECT_EQ(QDir(QSettings().value(QStringLiteral("lastDirectory")).toString()).canonicalPath(), folder);
}

// Every menu action once, with a run open and whatever it opens closed again: the window is still there,
// still shows the run, and Quit (last) closes it with its settings saved.
TEST_F(FirstUseTest, EveryMenuActionRunsOnceAndTheWindowOutlivesThemAll) {
  MainWindow window;
  window.resize(1024, 700);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  // A copy: Add Candidate to Slides writes its sidecar beside the run file.
  QTemporaryDir dir;
  const QString copy = dir.filePath(QStringLiteral("diag-matmul.kscope.jsonl"));
  ASSERT_TRUE(QFile::copy(kDiagSample, copy));
  ASSERT_TRUE(openAndWait(window, copy));
  window.taskTable()->setCurrentRow(0);
  const int rows = window.run()->rowCount();

  // The menus are read again before each action: one may rebuild a menu (Open Recent does), deleting the
  // actions it held. Quit is left for last.
  const auto actionsButQuit = [&window] {
    QList<QAction*> list = menuActions(window);
    list.removeIf([](const QAction* a) { return a->text() == QStringLiteral("&Quit"); });
    return list;
  };
  QAction* quit = nullptr;
  for (QAction* action : menuActions(window))
    if (action->text() == QStringLiteral("&Quit")) quit = action;
  ASSERT_NE(quit, nullptr);
  ASSERT_EQ(quit->shortcut(), QKeySequence(QKeySequence::Quit));
  ASSERT_GE(actionsButQuit().size(), 30) << "the menus lost their actions";

  Closer closer(&window, 40);
  QStringList triggered;
  for (int i = 0;; ++i) {
    const QList<QAction*> actions = actionsButQuit();
    if (i >= actions.size()) break;
    QAction* action = actions[i];
    if (!action->isEnabled()) continue;
    const QString name = action->text();
    action->trigger();
    QTest::qWait(30);
    closer.closeAll();
    // A run or a compile that an action started is stopped before the next, so none outlives the test.
    window.runController()->cancel();
    ASSERT_TRUE(window.isVisible()) << "after " << name.toStdString();
    triggered << name;
  }
  EXPECT_GE(triggered.size(), 25);
  for (int waited = 0; waited < 60000 && window.runController()->isBusy(); waited += 50) QTest::qWait(50);
  EXPECT_FALSE(window.runController()->isBusy());
  // Open Recent's own entries reopened the sample; the run on show is still a whole one.
  ASSERT_TRUE(window.run());
  EXPECT_EQ(window.run()->rowCount(), rows);

  quit->trigger();
  QTest::qWait(20);
  EXPECT_FALSE(window.isVisible());
  EXPECT_FALSE(QSettings().value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
}

// The first window (no saved geometry) fits the screen it opens on, status bar included: it opened at
// 1500 × 940 on any screen, half off a 1024 × 700 one.
TEST_F(FirstUseTest, TheFirstWindowFitsTheScreenItOpensOn) {
  const QSize least(980, 640);  // about what the panes need (MainWindow::kSmallestScreen bounds it)
  EXPECT_EQ(MainWindow::fittedSize({1500, 940}, {1920, 1050}, least), QSize(1500, 940));
  const QSize small = MainWindow::fittedSize({1500, 940}, {1024, 700}, least);
  EXPECT_LE(small.width(), 1024);
  EXPECT_LE(small.height(), 700);
  EXPECT_GE(small.width(), least.width());
  EXPECT_GE(small.height(), least.height());
  // A screen smaller than the panes' need: the whole screen, no more.
  EXPECT_EQ(MainWindow::fittedSize({1500, 940}, {800, 600}, least), QSize(800, 600));

  // The window itself: sized from its screen, on the first open and on View ▸ Reset Layout alike.
  MainWindow window;
  const QSize screen = window.screen()->availableGeometry().size();
  const QSize expected = MainWindow::fittedSize({1500, 940}, screen, window.minimumSizeHint());
  EXPECT_EQ(window.size(), expected.expandedTo(window.minimumSize()));
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  EXPECT_LE(window.minimumSizeHint().width(), MainWindow::kSmallestScreen.width());
  EXPECT_LE(window.minimumSizeHint().height(), MainWindow::kSmallestScreen.height());
}

// A filter that hides the task on show moves every pane to the first task shown (the selection model
// dropped its current index without a word, and the panes kept the hidden task); none shown, none on show.
TEST_F(FirstUseTest, AFilterThatHidesTheTaskOnShowMovesThePanesToTheFirstTaskShown) {
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QTemporaryDir dir;
  const QString joined = test::writeJoinedSamples(
      dir.path(), {QStringLiteral("diag-matmul.kscope.jsonl"), QStringLiteral("fused-elementwise.kscope.jsonl")});
  ASSERT_FALSE(joined.isEmpty());
  ASSERT_TRUE(openAndWait(window, joined));
  const auto& run = window.run();
  int other = -1;
  for (int r = 1; r < run->rowCount() && other < 0; ++r)
    if (run->task(r).key() != run->task(0).key()) other = r;
  ASSERT_GT(other, 0);
  window.taskTable()->setCurrentRow(0);
  ASSERT_EQ(window.openRun()->currentRow(), 0);
  // Filter on another task's key alone.
  const QString key = QString::fromStdString(run->task(other).key());
  auto* text = window.findChild<QLineEdit*>(QStringLiteral("filterText"));
  ASSERT_NE(text, nullptr);
  text->setText(key);
  QTest::qWait(50);
  ASSERT_GE(window.taskTable()->shownCount(), 1);
  EXPECT_EQ(window.openRun()->currentRow(), window.taskTable()->currentRow());
  EXPECT_GE(window.openRun()->currentRow(), 0);
  EXPECT_EQ(QString::fromStdString(run->task(window.openRun()->currentRow()).key()), key);
  text->setText(QStringLiteral("no task is called this"));
  QTest::qWait(50);
  EXPECT_EQ(window.taskTable()->shownCount(), 0);
  EXPECT_EQ(window.openRun()->currentRow(), -1);
}

// Help: the shortcuts come from the menus themselves, and the documents are read inside the window.
TEST_F(FirstUseTest, HelpListsTheMenusShortcutsAndShowsTheDocumentsRendered) {
  MainWindow window;
  const QList<ShortcutsDialog::Entry> entries = ShortcutsDialog::entries(window.menuBar());
  const auto find = [&](const QKeySequence& keys) -> const ShortcutsDialog::Entry* {
    for (const auto& e : entries)
      if (e.shortcut == keys.toString(QKeySequence::NativeText)) return &e;
    return nullptr;
  };
  const ShortcutsDialog::Entry* run = find(QKeySequence(Qt::Key_F9));
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->menu, QStringLiteral("Run"));
  EXPECT_EQ(run->action, QStringLiteral("Run Selected Candidate"));
  const ShortcutsDialog::Entry* folder = find(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  ASSERT_NE(folder, nullptr);
  EXPECT_EQ(folder->action, QStringLiteral("Open Folder"));
  ASSERT_NE(find(QKeySequence(Qt::Key_F7)), nullptr);
  ASSERT_NE(find(QKeySequence(QKeySequence::HelpContents)), nullptr);
  ShortcutsDialog dialog(window.menuBar());
  auto* table = dialog.findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->rowCount(), entries.size());

  DocsBrowser docs(QStringLiteral(KS_SOURCE_DIR "/docs"));
  ASSERT_FALSE(docs.documents().isEmpty());
  EXPECT_EQ(docs.documents().front(), QStringLiteral("architecture.md"));
  EXPECT_EQ(docs.shownDocument(), QStringLiteral("architecture.md"));
  const QString shown = docs.browser()->toPlainText();
  EXPECT_FALSE(shown.isEmpty());
  EXPECT_FALSE(shown.startsWith(QStringLiteral("# ")));  // rendered, not the markdown source
  ASSERT_TRUE(docs.showDocument(QStringLiteral("hacks.md")));
  EXPECT_EQ(docs.shownDocument(), QStringLiteral("hacks.md"));
  EXPECT_FALSE(docs.showDocument(QStringLiteral("no-such-document.md")));
}

// A compile shows its progress in the status bar for as long as nvcc runs (the message alone left after
// 15 s of a 60 s compile), and Cancel stops nvcc and says so.
TEST_F(FirstUseTest, ACompileShowsItsProgressUntilItEndsAndCancelStopsIt) {
  if (!nvcc::findNvcc().found()) GTEST_SKIP() << "no nvcc on this machine";
  MainWindow window;
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  ASSERT_TRUE(openAndWait(window, kDiagSample));
  int row = -1;
  for (int r = 0; r < window.run()->rowCount() && row < 0; ++r)
    if (const Candidate* c = window.run()->candidate(r); c && c->code && c->code->find("load_inline") !=
                                                                             std::string::npos)
      row = r;
  if (row < 0) GTEST_SKIP() << "the sample has no CUDA extension to compile";
  window.taskTable()->setCurrentRow(row);
  QAction* compile = window.findChild<QAction*>(QStringLiteral("compileAction"));
  ASSERT_NE(compile, nullptr);
  auto* progress = window.statusBar()->findChild<QProgressBar*>(QStringLiteral("compileProgress"));
  auto* cancel = window.statusBar()->findChild<QPushButton*>(QStringLiteral("compileCancel"));
  ASSERT_NE(progress, nullptr);
  ASSERT_NE(cancel, nullptr);
  EXPECT_FALSE(progress->isVisible());
  auto* command = window.findChild<CompileCommand*>();
  ASSERT_NE(command, nullptr);
  QSignalSpy finished(command, &CompileCommand::finished);
  compile->trigger();
  EXPECT_TRUE(progress->isVisible());
  EXPECT_TRUE(cancel->isVisible());
  EXPECT_TRUE(progress->toolTip().contains(QString::fromStdString(window.run()->task(row).key())));
  QTest::qWait(1500);
  EXPECT_TRUE(progress->isVisible());
  cancel->click();
  ASSERT_TRUE(finished.wait(60000));
  EXPECT_FALSE(progress->isVisible());
  EXPECT_FALSE(cancel->isVisible());
  EXPECT_TRUE(finished.front().front().toString().startsWith(QStringLiteral("Compile cancelled")))
      << finished.front().front().toString().toStdString();
}

}  // namespace
}  // namespace ks
