package dev.larch.bench.run;

import java.util.List;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.BenchResult.Run;

/** One ramp step's figures from its repeated runs: means, with the spread of throughput. */
final class RampStepFigures {
    private RampStepFigures() {}

    /**
     * @throws IllegalArgumentException if {@code runs} is empty
     */
    static BenchResult.RampStep of(int clients, int threads, List<Run> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a ramp step needs at least one run");
        }
        double ops = runs.stream().mapToDouble(Run::opsPerSecond).average().orElseThrow();
        double min = runs.stream().mapToDouble(Run::opsPerSecond).min().orElseThrow();
        double max = runs.stream().mapToDouble(Run::opsPerSecond).max().orElseThrow();
        long requests = runs.stream()
                .mapToLong(r -> r.ops() + r.wrongAnswers() + r.errors())
                .sum();
        long errors = runs.stream().mapToLong(Run::errors).sum();
        boolean serverKnown = runs.stream().allMatch(r -> r.cpu().serverCpuPercentOfOneCore() != null);
        return new BenchResult.RampStep(
                clients,
                threads,
                ops,
                runs.stream().mapToDouble(r -> r.latencyMs().p99()).average().orElseThrow(),
                runs.stream()
                        .mapToDouble(r -> r.cpu().harnessCpuPercentOfMachine())
                        .average()
                        .orElseThrow(),
                runs.size(),
                ops > 0 ? (max - min) / ops * 100 : 0,
                requests > 0 ? errors * 100.0 / requests : 0,
                runs.stream().mapToLong(Run::wrongAnswers).sum(),
                BenchResult.Resources.meanOpsPerServerCpuSecond(runs),
                serverKnown
                        ? runs.stream()
                                .mapToDouble(r -> r.cpu().serverCpuPercentOfOneCore()
                                        / r.cpu().cores())
                                .average()
                                .orElseThrow()
                        : null,
                runs.stream().map(Run::run).toList());
    }
}
