from drill.entry import main

main()
