using System.Collections.Generic;
using System.Text;

namespace StoreKeeper
{
    /// <summary>
    /// The top-level members of the JSON objects the library writes (name to raw value
    /// text), enough to route an event; parse results with the game's JSON library
    /// (JsonUtility, Newtonsoft).
    /// </summary>
    public static class JsonMembers
    {
        /// <summary>The members of the object <paramref name="json"/>.</summary>
        public static Dictionary<string, string> Parse(string json)
        {
            var found = new Dictionary<string, string>();
            int i = json.IndexOf('{');
            if (i < 0) return found;
            i++;
            while (true)
            {
                i = SkipSpace(json, i);
                if (i >= json.Length || json[i] != '"') return found;
                int keyEnd = SkipString(json, i);
                string key = json.Substring(i + 1, keyEnd - i - 2);
                i = SkipSpace(json, keyEnd);
                if (i >= json.Length || json[i] != ':') return found;
                i = SkipSpace(json, i + 1);
                int start = i, depth = 0;
                for (; i < json.Length; i++)
                {
                    char c = json[i];
                    if (c == '"') i = SkipString(json, i) - 1;
                    else if (c == '{' || c == '[') depth++;
                    else if (c == '}' || c == ']') { if (depth == 0) break; depth--; }
                    else if (c == ',' && depth == 0) break;
                }
                found[key] = json.Substring(start, i - start);
                if (i >= json.Length || json[i] == '}') return found;
                i++;
            }
        }

        /// <summary>The text of a JSON string value (\" and \\ unescaped), or the raw
        /// value when it is no string.</summary>
        public static string Unquote(string value)
        {
            if (value == null || value.Length < 2 || value[0] != '"') return value;
            var text = new StringBuilder();
            for (int i = 1; i + 1 < value.Length; i++)
            {
                if (value[i] == '\\' && i + 2 < value.Length && (value[i + 1] == '"' || value[i + 1] == '\\')) i++;
                text.Append(value[i]);
            }
            return text.ToString();
        }

        /// <summary>The JSON string literal of <paramref name="text"/>.</summary>
        public static string Quote(string text)
        {
            var json = new StringBuilder("\"");
            foreach (char c in text)
            {
                switch (c)
                {
                    case '"': json.Append("\\\""); break;
                    case '\\': json.Append("\\\\"); break;
                    case '\n': json.Append("\\n"); break;
                    case '\r': json.Append("\\r"); break;
                    case '\t': json.Append("\\t"); break;
                    default:
                        if (c < 0x20) json.Append("\\u").Append(((int)c).ToString("x4"));
                        else json.Append(c);
                        break;
                }
            }
            return json.Append('"').ToString();
        }

        private static int SkipString(string json, int at)
        {
            for (at++; at < json.Length; at++)
            {
                if (json[at] == '\\') at++;
                else if (json[at] == '"') return at + 1;
            }
            return at;
        }

        private static int SkipSpace(string json, int at)
        {
            while (at < json.Length && char.IsWhiteSpace(json[at])) at++;
            return at;
        }
    }
}
