"""companion/ui"""
