#!/usr/bin/env bash
# The exact commands of the replication (docs/replication/README.md).
# Every simulate command resumes (--resume), so the script can be re-run after
# an interruption and continues where it stopped.  Run from the repo root.
#
# The repository keeps each finished run as a compact archive (run.npz, see
# pybcv/engine/archive.py).  By default the script first turns the archives back into
# stores (results.sqlite), so every simulate below finds its repetitions done
# and only re-gathers (minutes); FRESH=1 recomputes every run from its seed
# instead (same numbers; the runs took about 6.5 h of repetition time).  At the end every
# store becomes an archive again (checked bit for bit, then the store is
# deleted); an unchanged run gives the very same bytes, so git shows no change.
set -euo pipefail
cd "$(dirname "$0")/../.."
P="${PYBCV:-.venv/bin/python -m pybcv}"
A="${PYBCV_ARCHIVE:-.venv/bin/pybcv archive}"
R=docs/replication/runs
[ -n "${FRESH:-}" ] || $A unpack $R
POWER_TESTS=t_5x2cv,corrected_rho_t,blocked_t_3x2bcv,combined_f_5x2cv,calibrated_f_5x2bcv,proportion_z,mcnemar_ho,mcnemar_kfold_naive,mcnemar_5x2bcv

# --- Table 5: type-I errors (H0 true) -------------------------------------------
if [ -z "${POWER_SETS:-}" ]; then      # (POWER_SETS: only the EXP6/letter power curves, below)
# epsilon (learner-free), both profiles
$P simulate --dataset epsilon --tests table5 --reps 1000 --seed 1 --out $R/epsilon_default --resume --quiet
$P simulate --dataset epsilon --tests table5 --reps 1000 --seed 1 --profile paper --out $R/epsilon_paper --resume --quiet
# simple, delta = 0, glm vs majority: Python backend (1000 reps) and R backend
$P simulate --dataset simple --param 0 --tests table5 --reps 1000 --seed 2 --backend python --out $R/simple_python --resume --quiet
$P simulate --dataset simple --param 0 --tests table5 --reps ${SIMPLE_R_REPS:-1000} --seed 2 --backend r --out $R/simple_r --resume --quiet
# EXP6 (J48 -U vs FNN omega = 0.29) and letter (tree vs FNN upsilon = 30.09), R learners
$P simulate --dataset exp6 --tests table5 --reps ${EXP6_REPS:-1000} --seed 3 --backend r --out $R/exp6_typeI --resume --quiet
$P simulate --dataset letter --tests table5 --reps ${LETTER_REPS:-1000} --seed 4 --backend r --out $R/letter_typeI --resume --quiet
# (the paper profile of simple/EXP6/letter is re-scored from the stored fold tables:
#  pybcv report ... --profile paper)

# --- power curves -----------------------------------------------------------------
# simple: delta = 0, 0.1, ..., 1
$P simulate --dataset simple --param 0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1 --tests table5 \
   --reps ${SIMPLE_POWER_REPS:-1000} --seed 12 --backend python --out $R/simple_power --resume --quiet
fi
# true error rates -> omega / upsilon for lambda = 0, 0.1, ..., 1 (100 training sets of n = 300)
mkdir -p $R/exp6_power $R/letter_power
[ -s $R/exp6_power/truth.json ] || $P truth --dataset exp6 --grid 0.2,0.25,0.29,0.3,0.35,0.4,0.45,0.5,0.6,0.7,0.8,0.9,1 \
   --sets ${TRUTH_SETS:-100} --seed 5 --backend r --backend-b python --out $R/exp6_power/truth.json --quiet
[ -s $R/letter_power/truth.json ] || $P truth --dataset letter --grid 1,3,8,16,25,30,35,50 \
   --sets ${LETTER_TRUTH_SETS:-50} --seed 6 --backend r --backend-b python --out $R/letter_power/truth.json --quiet
params() { .venv/bin/python -c "import json,sys; t=json.load(open(sys.argv[1])); print(','.join(f'{x[t[\"param\"]]:.4f}' for x in t['targets']))" "$1"; }
# One process per point (a fresh embedded R and JVM each, ~8 min per point at 1000
# repetitions), then the whole curve with --resume, which only gathers power.csv.
# POWER_SETS=exp6 or =letter restricts this section to one curve (two shells, two cores).
g() { .venv/bin/python -c "import sys; print(f'{float(sys.argv[1]):g}')" "$1"; }
for spec in "exp6 13 ${EXP6_POWER_REPS:-1000}" "letter 14 ${LETTER_POWER_REPS:-1000}"; do
  set -- $spec
  case "${POWER_SETS:-exp6 letter}" in *$1*) ;; *) continue ;; esac
  for v in $(params $R/$1_power/truth.json | tr , ' '); do
    $P simulate --dataset $1 --param $v --tests $POWER_TESTS --reps $3 --seed $2 --backend r \
       --out $R/$1_power/param=$(g $v) --resume --quiet
  done
  $P simulate --dataset $1 --param "$(params $R/$1_power/truth.json)" --tests $POWER_TESTS \
     --reps $3 --seed $2 --backend r --out $R/$1_power --resume --quiet
done
[ -n "${POWER_SETS:-}" ] && exit 0

# --- archives: every store -> run.npz (read back and compared bit for bit first) ---
$A convert --delete-sqlite $R

# --- reports ------------------------------------------------------------------------
# (simple: the R run; runs/simple_python holds the identical Python run)
$P report $R/epsilon_default $R/simple_r $R/exp6_typeI $R/letter_typeI \
   $R/simple_power $R/exp6_power $R/letter_power --out docs/replication/report_default.md --profile default
$P report $R/epsilon_paper $R/simple_r $R/exp6_typeI $R/letter_typeI \
   $R/simple_power $R/exp6_power $R/letter_power --out docs/replication/report_paper.md --profile paper
