package dev.spool.agent.it;

import java.util.Map;

/**
 * Where two runs' files first differ, for a differential test's failure message: the file names
 * when the sets differ, else the first file whose content differs, with {@code context}
 * characters of both around the first differing character. Example:
 * <pre>{@code
 * if (!plain.equals(agent)) differences.add(name + "\n" + FirstDifference.of(plain, agent, 60));
 * }</pre>
 */
final class FirstDifference {
    private FirstDifference() {
    }

    /**
     * @param plain each file's content (by name) without the agent
     * @param agent the same with the agent
     * @param context characters shown before and after the first difference
     * @return e.g. {@code "app.log at 120: plain ...<text>\n  agent ...<text>"}, or "" when they are equal
     */
    static String of(Map<String, String> plain, Map<String, String> agent, int context) {
        if (!plain.keySet().equals(agent.keySet())) {
            return "files plain " + plain.keySet() + " agent " + agent.keySet();
        }
        for (String name : plain.keySet()) {
            String p = plain.get(name);
            String a = agent.get(name);
            if (!p.equals(a)) {
                int i = 0;
                while (i < Math.min(p.length(), a.length()) && p.charAt(i) == a.charAt(i)) {
                    i++;
                }
                int from = Math.max(0, i - context);
                return name + " at " + i + ": plain ..." + p.substring(from, Math.min(p.length(), i + context))
                        + "\n  agent ..." + a.substring(from, Math.min(a.length(), i + context));
            }
        }
        return "";
    }
}
