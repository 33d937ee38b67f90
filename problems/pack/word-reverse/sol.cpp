// Reference: read each line, split on spaces, print the words backwards.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::string line;
    std::getline(std::cin, line);
    int m = std::stoi(line);
    std::string out;
    std::vector<std::string> words;
    for (int i = 0; i < m; i++) {
        std::getline(std::cin, line);
        std::istringstream ss(line);
        words.clear();
        for (std::string w; ss >> w;) words.push_back(w);
        for (size_t j = words.size(); j-- > 0;) {
            out += words[j];
            if (j) out += ' ';
        }
        out += '\n';
    }
    std::cout << out;
}
