package dev.hotspare.validation;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions for unknown field and type names, by edit distance. */
public final class Suggestions {

    private Suggestions() {
    }

    /**
     * The candidate closest to {@code unknown}, if it is close enough to be a plausible typo
     * (edit distance at most a third of the word, minimum 1, ignoring case).
     *
     * @return the candidate closest to {@code unknown}, if it is close enough to be a plausible typo (edit distance
     *         at most a third of the word, minimum 1, ignoring case)
     */
    public static Optional<String> closest(String unknown, Collection<String> candidates) {
        String needle = unknown.toLowerCase(Locale.ROOT);
        int allowed = Math.max(1, needle.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = levenshtein(needle, candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance || (distance == bestDistance && best != null && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    static int levenshtein(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
