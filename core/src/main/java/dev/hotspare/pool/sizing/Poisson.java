package dev.hotspare.pool.sizing;

/** The one piece of probability the sizer needs. */
final class Poisson {

    private Poisson() {
    }

    /**
     * The smallest {@code k} in {@code [0, cap + 1]} with {@code P(N >= k) <= epsilon} for {@code N ~ Poisson(mean)},
     * or {@code cap + 1} when even {@code cap} has a larger tail. Summed in log space, so large means neither
     * underflow nor overflow; exact to double precision, deterministic.
     */
    static int smallestCountWithTailAtMost(double mean, double epsilon, int cap) {
        if (mean <= 0) {
            return 0;
        }
        double logMean = Math.log(mean);
        double logPmf = -mean;
        double cdf = 0;
        for (int n = 0; n <= cap; n++) {
            if (n > 0) {
                logPmf += logMean - Math.log(n);
            }
            cdf += Math.exp(logPmf);
            // P(N >= n + 1) = 1 - P(N <= n)
            if (1 - cdf <= epsilon) {
                return n + 1;
            }
        }
        return cap + 1;
    }
}
