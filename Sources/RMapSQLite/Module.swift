public import RMap
