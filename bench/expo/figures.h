// SPDX-License-Identifier: Apache-2.0
// figures.h: the commands of sinew_expo that run the paper's experiments (experiments.h) and
// write their tables and figures: error, stability, figures, summary (usage in main.c).
#ifndef EXPO_FIGURES_H
#define EXPO_FIGURES_H

/// argv[0] is the command's name; shared_dir the folder holding models/. Exit codes: 0 done,
/// 1 a run failed to set up or a file could not be written, 2 bad arguments.
int expo_cmd_error(int argc, char** argv, const char* shared_dir);
int expo_cmd_stability(int argc, char** argv, const char* shared_dir);
int expo_cmd_figures(int argc, char** argv, const char* shared_dir);
/// summary.md again from DIR's error CSVs (no runs).
int expo_cmd_summary(int argc, char** argv);

#endif
